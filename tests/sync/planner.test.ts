/**
 * The planner on hand-made trees: each rule of workers/sync/planner.ts and decide-*.ts once, plainly
 * (the randomized simulation, simulation.test.ts, mixes them all).
 */
import { describe, expect, it } from 'vitest';
import { conflictCopyName, isConflictCopyName } from '../../workers/sync/conflict-name';
import { describeOp } from '../../workers/sync/executor';
import type { PlanInput } from '../../workers/sync/model';
import { createIgnoreMatcher, localNameProblem } from '../../workers/sync/names';
import { plan } from '../../workers/sync/planner';
import { agreed, dir, file, NOW, OLD, planInput, rdir, rfile } from './plan-entries';

function run(over: Partial<PlanInput>): string[] {
  const p = plan(planInput(over));
  return [...p.ops.map(describeOp), ...p.problems.map((x) => `problem ${x.side} ${x.path}: ${x.reason}`)];
}

describe('planner', () => {
  it('does nothing when the three trees agree', () => {
    const l = file('a.txt', 'F1');
    const r = rfile('a.txt', 'F1');
    expect(run({ local: [l], remote: [r], journal: [agreed(l, r)] })).toEqual([]);
  });

  it('uploads a local change as a new version guarded by the agreed fingerprint, and downloads a remote one', () => {
    const l = file('a.txt', 'F1');
    const r = rfile('a.txt', 'F1');
    expect(run({ local: [{ ...l, fingerprint: 'F2', mtimeMs: OLD + 5 }], remote: [r], journal: [agreed(l, r)] })).toEqual(['upload a.txt → a.txt replacing r-a.txt']);
    expect(run({ local: [l], remote: [{ ...r, fingerprint: 'F3' }], journal: [agreed(l, r)] })).toEqual(['download a.txt (r-a.txt) → a.txt over the local file']);
  });

  it('keeps both when both changed: the local one steps aside as a conflict copy named after the account and time', () => {
    const l = file('报告.docx', 'F1');
    const r = rfile('报告.docx', 'F1');
    const ops = run({ local: [{ ...l, fingerprint: 'F2', mtimeMs: OLD + 5 }], remote: [{ ...r, fingerprint: 'F3' }], journal: [agreed(l, r)] });
    expect(ops).toEqual([
      'conflictLocal 报告.docx → 报告 (冲突副本 张三 2024-05-01 1030).docx',
      'download 报告.docx (r-报告.docx) → 报告.docx',
      'upload 报告 (冲突副本 张三 2024-05-01 1030).docx → 报告 (冲突副本 张三 2024-05-01 1030).docx',
    ]);
  });

  it('adopts what both sides hold alike (a reinstall re-uploads nothing) and keeps both when they differ', () => {
    expect(run({ local: [file('a.txt', 'F1'), dir('d')], remote: [rfile('a.txt', 'F1'), rdir('d')] })).toEqual(['record d (r-d)', 'record a.txt (r-a.txt)']);
    expect(run({ local: [file('a.txt', 'F1')], remote: [rfile('a.txt', 'F9')] })[0]).toBe('conflictLocal a.txt → a (冲突副本 张三 2024-05-01 1030).txt');
  });

  it('sends a local move or rename as one move, found by the file id or, failing that, by a unique fingerprint', () => {
    const l = file('docs/a.txt', 'F1', 'ino-7');
    const r = rfile('docs/a.txt', 'F1');
    const d = dir('docs');
    const rd = rdir('docs');
    const base = { remote: [rd, r], journal: [agreed(d, rd), agreed(l, r)] };
    expect(run({ ...base, local: [d, { ...l, path: 'docs/b.txt' }] })).toEqual(['moveRemote docs/a.txt → docs/b.txt']);
    // Copied and deleted (a new file id): the content still names the move; the new id is then recorded.
    expect(run({ ...base, local: [d, { ...l, path: 'b.txt', fileId: 'ino-8' }] })).toEqual(['moveRemote docs/a.txt → b.txt', 'record b.txt (r-docs/a.txt)']);
  });

  it('moves a remote move here too, and a folder moves with everything in it', () => {
    const d = dir('旧');
    const l = file('旧/a.txt', 'F1');
    const rd = rdir('旧', 'r-dir');
    const r = rfile('旧/a.txt', 'F1', 'r-a');
    const ops = run({ local: [d, l], remote: [{ ...rd, path: '新' }, { ...r, path: '新/a.txt' }], journal: [agreed(d, rd), agreed(l, r)] });
    expect(ops).toEqual(['moveLocal 旧 → 新']);
  });

  it('takes a case-only rename as a rename, and a macOS (NFD) name and its Windows (NFC) twin as one file', () => {
    const l = file('readme.md', 'F1');
    const r = rfile('readme.md', 'F1');
    expect(run({ local: [{ ...l, path: 'README.md' }], remote: [r], journal: [agreed(l, r)] })).toEqual(['moveRemote readme.md → README.md', 'record README.md (r-readme.md)']);
    expect(run({ local: [l], remote: [{ ...r, path: 'ReadMe.md' }], journal: [agreed(l, r)] })).toEqual(['moveLocal readme.md → ReadMe.md', 'record ReadMe.md (r-readme.md)']);
    const nfd = file('Café.txt'.normalize('NFD'), 'F1');
    const nfc = rfile('Café.txt'.normalize('NFC'), 'F1');
    expect(run({ local: [nfd], remote: [nfc], journal: [agreed(nfd, nfc)] })).toEqual([]);
  });

  it('deletes on the other side only what is as agreed; a folder with something new under it is kept', () => {
    const d = dir('d');
    const a = file('d/a.txt', 'F1');
    const rd = rdir('d');
    const ra = rfile('d/a.txt', 'F1');
    const journal = [agreed(d, rd), agreed(a, ra)];
    expect(run({ local: [], remote: [rd, ra], journal })).toEqual(['deleteRemote d (r-d)']);
    // Changed on the other side after the delete: the change comes back instead.
    expect(run({ local: [], remote: [rd, { ...ra, fingerprint: 'F2' }], journal })).toEqual(['mkdirLocal d', 'download d/a.txt (r-d/a.txt) → d/a.txt']);
    // Deleted remotely while a new file was added locally: the agreed file goes, the folder and the new file stay.
    expect(run({ local: [d, a, file('d/new.txt', 'F5')], remote: [], journal })).toEqual(['deleteLocal d/a.txt', 'mkdirRemote d', 'upload d/new.txt → d/new.txt']);
  });

  it('backup: never downloads, keeps the cloud copy of a local delete unless asked, puts back what the cloud lost', () => {
    const a = file('a.txt', 'F1');
    const ra = rfile('a.txt', 'F1');
    const backup = { mode: 'backup' as const, journal: [agreed(a, ra)] };
    expect(run({ ...backup, local: [], remote: [ra] })).toEqual(['forget a.txt']);
    expect(run({ ...backup, deleteRemote: true, local: [], remote: [ra] })).toEqual(['deleteRemote a.txt (r-a.txt)']);
    expect(run({ ...backup, local: [a], remote: [] })).toEqual(['upload a.txt → a.txt']);
    expect(run({ ...backup, local: [a], remote: [{ ...ra, fingerprint: 'F9' }] })).toEqual(['upload a.txt → a.txt replacing r-a.txt']);
    expect(run({ mode: 'backup', local: [], remote: [rfile('theirs.txt', 'F2')] })).toEqual([]);
  });

  it('leaves alone what it must: files still being written, ignored names, names a side refuses (suggesting the web app’s fix)', () => {
    expect(run({ local: [file('busy.log', 'F1')], frozen: new Map([['busy.log', '文件正在写入']]) })).toEqual([]);
    expect(run({ local: [file('~$报告.docx', 'F1'), file('.DS_Store', 'F2'), file('Thumbs.db', 'F3')], remote: [rfile('desktop.ini', 'F4')] })).toEqual([]);
    expect(run({ local: [file('build/out.js', 'F1'), dir('build')], isIgnored: createIgnoreMatcher(['build/']) })).toEqual([]);
    expect(run({ local: [file('a,b.txt', 'F1'), file('trail.', 'F2')] })).toEqual([
      'problem local a,b.txt: 无法上传“a,b.txt”：名称不能包含以下字符：| , / < > * ? \\ [ ]。请重命名该文件，例如改为“a，b.txt”',
      'problem local trail.: 无法上传“trail.”：名称不能以点号结尾。请重命名该文件，例如改为“trail”',
    ]);
    expect(run({ platform: 'win32', remote: [rfile('a:b.txt', 'F1'), rfile('con.txt', 'F2')] })).toEqual([
      'problem remote a:b.txt: 无法下载“a:b.txt”：Windows 不支持名称中的 < > : " / \\ | ? * 字符（可在网页端重命名）',
      'problem remote con.txt: 无法下载“con.txt”：Windows 保留名称（CON、NUL、COM1 等）无法保存（可在网页端重命名）',
    ]);
  });

  it('keeps both of a case-only pair: one keeps its name, the other is renamed aside here and uploaded under the new name', () => {
    // Nothing synced yet: code-point order decides (A before a).
    expect(run({ local: [file('a.txt', 'F2'), file('A.txt', 'F1')] })).toEqual([
      'conflictLocal a.txt → a（大小写冲突）.txt',
      'upload A.txt → A.txt',
      'upload a（大小写冲突）.txt → a（大小写冲突）.txt',
    ]);
    // The file synced before keeps its name (same file id), whichever spelling sorts first.
    const l = file('a.txt', 'F1');
    const r = rfile('a.txt', 'F1');
    expect(run({ local: [l, file('A.txt', 'F2')], remote: [r], journal: [agreed(l, r)] })).toEqual([
      'conflictLocal A.txt → A（大小写冲突）.txt',
      'upload A（大小写冲突）.txt → A（大小写冲突）.txt',
    ]);
    // Else the spelling the cloud holds.
    expect(run({ local: [file('A.txt', 'F1'), file('a.txt', 'F9')], remote: [rfile('a.txt', 'F9')] })).toEqual([
      'conflictLocal A.txt → A（大小写冲突）.txt',
      'upload A（大小写冲突）.txt → A（大小写冲突）.txt',
      'record a.txt (r-a.txt)',
    ]);
  });

  it('a case-insensitive laptop (Windows, macOS) takes both of a separated pair as two files', () => {
    const ops = run({ platform: 'win32', local: [], remote: [rfile('A.txt', 'F1'), rfile('a（大小写冲突）.txt', 'F2'), rfile(`${'Café'}（编码冲突）.txt`, 'F3')] });
    expect(ops.sort()).toEqual([
      'download A.txt (r-A.txt) → A.txt',
      'download Café（编码冲突）.txt (r-Café（编码冲突）.txt) → Café（编码冲突）.txt',
      'download a（大小写冲突）.txt (r-a（大小写冲突）.txt) → a（大小写冲突）.txt',
    ]);
  });

  it('keeps both of an NFC/NFD pair: the NFC one keeps its name', () => {
    const nfc = 'Café.txt'.normalize('NFC');
    const nfd = 'Café.txt'.normalize('NFD');
    expect(run({ local: [file(nfd, 'F2'), file(nfc, 'F1')] })).toEqual([
      `conflictLocal ${nfd} → ${'Café'.normalize('NFD')}（编码冲突）.txt`,
      `upload ${nfc} → ${nfc}`,
      `upload ${'Café'.normalize('NFD')}（编码冲突）.txt → ${'Café'.normalize('NFC')}（编码冲突）.txt`,
    ]);
  });

  it('renames a twin folder aside with everything in it, numbers a clash name that is taken, and never renames again', () => {
    const ops = run({ local: [dir('Docs'), dir('docs'), file('Docs/x.txt', 'F1'), file('docs/y.txt', 'F2'), file('docs（大小写冲突）', 'F3')] });
    expect(ops).toContain('conflictLocal docs → docs（大小写冲突 2）');
    expect(ops.filter((op) => op.includes('y.txt'))).toEqual([]);
    // The next pass (both renamed ones now ordinary names): nothing clashes, nothing is renamed.
    const next = run({ local: [file('A.txt', 'F1'), file('a（大小写冲突）.txt', 'F2')] });
    expect(next).toEqual(['upload A.txt → A.txt', 'upload a（大小写冲突）.txt → a（大小写冲突）.txt']);
  });

  it('backup mode never renames on the local disk: the twin is listed, the other one backed up', () => {
    expect(run({ mode: 'backup', local: [file('a.txt', 'F2'), file('A.txt', 'F1')] })).toEqual([
      'upload A.txt → A.txt',
      'problem local a.txt: 无法上传“a.txt”：与“A.txt”只有大小写不同，云端只能保存其中一个。请重命名其中一个',
    ]);
  });

  it('a twin still being written waits; one under a frozen folder is left alone', () => {
    expect(run({ local: [file('a.txt', 'F2'), file('A.txt', 'F1')], frozen: new Map([['a.txt', '文件正在写入']]) })).toEqual(['upload A.txt → A.txt']);
  });

  it('does not bring into the cloud a name another computer cannot hold, naming the file and the rule; one the cloud holds syncs as it is', () => {
    const long = '长'.repeat(86) + '.txt'; // 262 bytes: fine on Windows, too long for Linux and macOS
    expect(run({ platform: 'darwin', local: [file('a:b.txt', 'F1'), file('say "hi".txt', 'F2'), file(long, 'F3'), file('CON.txt', 'F4'), file('end ', 'F5')] })).toEqual([
      'problem local CON.txt: 无法上传“CON.txt”：名称不能使用系统保留名（CON、PRN、AUX、NUL、COM1–COM9、LPT1–LPT9）。请重命名该文件，例如改为“CON_.txt”',
      'problem local a:b.txt: 无法上传“a:b.txt”：名称含有 Windows 电脑无法保存的字符（: 或 "）。请重命名该文件',
      'problem local end : 无法上传“end ”：名称首尾不能有空格。请重命名该文件，例如改为“end”',
      'problem local say "hi".txt: 无法上传“say "hi".txt”：名称含有 Windows 电脑无法保存的字符（: 或 "）。请重命名该文件',
      `problem local ${long}: 无法上传“${long}”：名称超过 255 字节，Linux 和 macOS 电脑无法保存。请重命名该文件`,
    ]);
    // Put there from the web: the cloud has it, this Linux disk holds it, so it syncs both ways.
    const l = file('10:30 会议.txt', 'F1');
    const r = rfile('10:30 会议.txt', 'F1');
    expect(run({ local: [{ ...l, fingerprint: 'F2', mtimeMs: OLD + 5 }], remote: [r], journal: [agreed(l, r)] })).toEqual(['upload 10:30 会议.txt → 10:30 会议.txt replacing r-10:30 会议.txt']);
    expect(run({ local: [], remote: [r] })).toEqual(['download 10:30 会议.txt (r-10:30 会议.txt) → 10:30 会议.txt']);
    // A synced file renamed or moved to such a name is moved in the cloud, never taken for deleted.
    const s = file('x.txt', 'F1');
    const rs = rfile('x.txt', 'F1');
    expect(run({ local: [{ ...s, path: '10:31 会议.txt' }], remote: [rs], journal: [agreed(s, rs)] })).toEqual(['moveRemote x.txt → 10:31 会议.txt']);
  });

  it('names conflict copies, numbering them when the name is taken', () => {
    const taken = new Set(['a (冲突副本 张三 2024-05-01 1030).txt']);
    expect(conflictCopyName('a.txt', false, '张三', NOW, (n) => taken.has(n))).toBe('a (冲突副本 张三 2024-05-01 1030 2).txt');
    expect(conflictCopyName('.env', false, 'x/y', NOW, () => false)).toBe('.env (冲突副本 x_y 2024-05-01 1030)');
    expect(conflictCopyName('文件夹.v2', true, '张三', NOW, () => false)).toBe('文件夹.v2 (冲突副本 张三 2024-05-01 1030)');
    expect(isConflictCopyName('a (冲突副本 张三 2024-05-01 1030 2).txt')).toBe(true);
    expect(isConflictCopyName('a (1).txt')).toBe(false);
  });

  it('knows which names Windows cannot hold', () => {
    expect(localNameProblem('a:b.txt', 'win32')).toContain('Windows');
    expect(localNameProblem('NUL.txt', 'win32')).toContain('保留名称');
    expect(localNameProblem('ends. ', 'win32')).toContain('结尾');
    expect(localNameProblem('a:b.txt', 'linux')).toBeNull();
  });
});
