import { describe, expect, it } from 'vitest';
import type { MultipleFileCheckResult } from '../../../common/transfer/checks';
import { acceptedCount, groupsFor, queuedText, REFUSED_REASON, refusedText, sortPick } from '../../../src/features/files/uploads/upload-clash';

function result(key: number, found: Partial<MultipleFileCheckResult>): [string, MultipleFileCheckResult] {
  const base: MultipleFileCheckResult = { key: String(key), blockedType: false, sensitive: false, locked: false, exists: false, existingFileId: null, replaceable: true, suggestedName: '', overQuota: false };
  return [String(key), { ...base, ...found }];
}

describe('files picked against the target folder', () => {
  const files = ['新.txt', '同名.txt', '病毒.exe', '他人.txt', '锁定.txt', '大.bin'];
  const results = new Map([
    result(0, {}),
    result(1, { exists: true }),
    result(2, { blockedType: true }),
    result(3, { exists: true, replaceable: false }),
    result(4, { exists: true, locked: true }),
    result(5, { overQuota: true }),
  ]);
  const pick = sortPick(files, results);

  it('sorts out the clashes and the refused files; a locked one is left to the engine', () => {
    expect(pick.clashes).toEqual([
      { file: '同名.txt', replaceable: true },
      { file: '他人.txt', replaceable: false },
    ]);
    expect(pick.plain).toEqual(['新.txt', '病毒.exe', '锁定.txt', '大.bin']);
    expect(pick.refused.map((r) => r.file)).toEqual(['病毒.exe', '大.bin']);
  });

  it('queues each answer with its policy; a new version of another member\'s file keeps both instead', () => {
    expect(groupsFor(pick, 'newVersion')).toEqual([
      { files: ['新.txt', '病毒.exe', '锁定.txt', '大.bin'] },
      { files: ['同名.txt'], options: { onConflict: 'newVersion' } },
      { files: ['他人.txt'], options: { onConflict: 'rename' } },
    ]);
    expect(groupsFor(pick, 'rename')[1]).toEqual({ files: ['同名.txt', '他人.txt'], options: { onConflict: 'rename' } });
    expect(groupsFor(pick, 'skip')).toEqual([{ files: ['新.txt', '病毒.exe', '锁定.txt', '大.bin'] }]);
    expect(groupsFor(pick, 'cancel')).toEqual([]);
  });

  it('counts only what will be uploaded, and names the refused files by reason', () => {
    expect(acceptedCount(pick, 'rename')).toBe(4);
    expect(acceptedCount(pick, 'skip')).toBe(2);
    expect(acceptedCount(pick, 'cancel')).toBe(0);
    expect(queuedText(2)).toBe('已加入传输列表：2 个文件');
    expect(queuedText(0)).toBeNull();
    expect(refusedText([{ name: '病毒.exe', reason: REFUSED_REASON.blockedType }, { name: '大.bin', reason: REFUSED_REASON.overQuota }])).toBe('「病毒.exe」的类型禁止上传；「大.bin」超出剩余空间，未加入传输列表。');
    const many = ['a.exe', 'b.exe', 'c.exe', 'd.exe'].map((name) => ({ name, reason: REFUSED_REASON.blockedType }));
    expect(refusedText(many)).toBe('「a.exe」「b.exe」「c.exe」等 4 个文件的类型禁止上传，未加入传输列表。');
  });
});
