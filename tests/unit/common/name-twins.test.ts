import { describe, expect, it } from 'vitest';
import { checkFileName, FORBIDDEN_NAME_CHARS, forbiddenCharsIn, FULL_WIDTH_TWINS, suggestFileName, withFullWidthTwins } from '../../../common/validation/names';

describe('full-width twins of the forbidden characters', () => {
  it('turns the issue’s name into the one a Chinese keyboard would have typed', () => {
    expect(withFullWidthTwins('方案[草稿],v1.docx')).toBe('方案【草稿】，v1.docx');
  });

  it('has a twin for every forbidden character, itself allowed, one UTF-16 unit long, and no two alike', () => {
    expect(Object.keys(FULL_WIDTH_TWINS).sort()).toEqual([...FORBIDDEN_NAME_CHARS].sort());
    for (const ch of FORBIDDEN_NAME_CHARS) {
      const twin = FULL_WIDTH_TWINS[ch];
      expect(twin).toHaveLength(1);
      expect(checkFileName(`a${twin}b`), ch).toBeNull();
    }
    expect(new Set(Object.values(FULL_WIDTH_TWINS)).size).toBe(FORBIDDEN_NAME_CHARS.length);
    expect(withFullWidthTwins('a|b/c\\d<e>f*g?h')).toBe('a｜b／c＼d＜e＞f＊g？h');
  });

  it('changes nothing else', () => {
    for (const n of ['报告 2024.docx', 'a.b.c', '（附件）.pdf', '数据_备份', '']) expect(withFullWidthTwins(n)).toBe(n);
  });

  it('lists the forbidden characters a name holds, each once', () => {
    expect(forbiddenCharsIn('方案[草稿],v1[终].docx')).toEqual(['[', ']', ',']);
    expect(forbiddenCharsIn('plain.txt')).toEqual([]);
  });
});

describe('suggestFileName (the one-click fix)', () => {
  it('keeps a valid name as it is stored', () => {
    expect(suggestFileName('报告.docx')).toBe('报告.docx');
    expect(suggestFileName('  报告.docx  ')).toBe('报告.docx');
    const nfd = 'cafe\u0301.txt';
    expect(suggestFileName(nfd)).toBe(nfd.normalize('NFC'));
  });

  it('replaces forbidden characters by their twins', () => {
    expect(suggestFileName('方案[草稿],v1.docx')).toBe('方案【草稿】，v1.docx');
    expect(suggestFileName('Q&A?.md')).toBe('Q&A？.md');
  });

  it('drops invisible characters and turns control white space into a space', () => {
    // U+202E would show `x\u202Egpj.exe` as `xexe.jpg`: without it the real extension shows.
    expect(suggestFileName('x\u202Egpj.exe')).toBe('xgpj.exe');
    expect(suggestFileName('a\u200Bb.txt')).toBe('ab.txt');
    expect(suggestFileName('第一行\n第二行.txt')).toBe('第一行 第二行.txt');
    expect(suggestFileName('a\u0007b.txt')).toBe('ab.txt');
  });

  it('drops trailing dots and gives a device name a suffix', () => {
    expect(suggestFileName('x.exe.')).toBe('x.exe');
    expect(suggestFileName('notes. . ')).toBe('notes');
    expect(suggestFileName('nul.txt')).toBe('nul_.txt');
    expect(suggestFileName('CON')).toBe('CON_');
    expect(suggestFileName('com1.tar')).toBe('com1_.tar');
  });

  it('shortens a name over 255 characters keeping its extension and whole characters', () => {
    const long = suggestFileName(`${'文'.repeat(300)}.pdf`)!;
    expect(long).toHaveLength(255);
    expect(long.endsWith('.pdf')).toBe(true);
    const emoji = suggestFileName(`${'😀'.repeat(200)}.txt`)!;
    expect(emoji.length).toBeLessThanOrEqual(255);
    expect(emoji.replace('.txt', '')).toMatch(/^(😀)+$/u);
    expect(suggestFileName('a'.repeat(300))).toBe('a'.repeat(255));
  });

  it('suggests nothing when nothing usable is left', () => {
    for (const n of ['', '   ', '.', '..', '\u200B', '...']) expect(suggestFileName(n), JSON.stringify(n)).toBeNull();
  });

  it('always suggests a name checkFileName accepts', () => {
    const samples = ['[a]', 'a,b|c', 'con.txt.', ' \u202E?.', `${'[x]'.repeat(100)}.docx`, 'lpt9', 'a\u0000b', '. .a'];
    for (const n of samples) {
      const s = suggestFileName(n);
      if (s !== null) expect(checkFileName(s), `${JSON.stringify(n)} → ${s}`).toBeNull();
    }
  });
});
