import { describe, expect, it } from 'vitest';
import { decodeCsv, detectDelimiter, parseCsv } from '../../../src/features/files/preview/csv-parse';

describe('CSV preview parsing', () => {
  it('reads quoted fields, escaped quotes, line breaks in quotes and CRLF', () => {
    const text = 'name,age,city\r\n张三,30,北京\r\n"Wang, Wu",40,"广州\n天河"\r\n"say ""hi""",,x\r\n';
    expect(parseCsv(text, 100)).toEqual({
      rows: [
        ['name', 'age', 'city'],
        ['张三', '30', '北京'],
        ['Wang, Wu', '40', '广州\n天河'],
        ['say "hi"', '', 'x'],
      ],
      truncated: false,
    });
  });
  it('stops at the row limit and says so', () => {
    const text = Array.from({ length: 10 }, (_, i) => `r${i},x`).join('\n');
    const parsed = parseCsv(text, 3);
    expect(parsed.rows).toHaveLength(3);
    expect(parsed.truncated).toBe(true);
    expect(parseCsv('a,b\n', 1)).toEqual({ rows: [['a', 'b']], truncated: false });
  });
  it('finds semicolons and tabs as delimiters', () => {
    expect(detectDelimiter('a;b;c\n1,2;3')).toBe(';');
    expect(parseCsv('a\tb\n1\t2', 10).rows).toEqual([['a', 'b'], ['1', '2']]);
  });
  it('decodes UTF-8 with a BOM and GB18030 from Excel', () => {
    const utf8 = new TextEncoder().encode('\uFEFF姓名,年龄');
    expect(decodeCsv(utf8.buffer as ArrayBuffer)).toBe('姓名,年龄');
    // 姓名 in GB18030
    const gb = new Uint8Array([0xd0, 0xd5, 0xc3, 0xfb, 0x2c, 0x31]);
    expect(decodeCsv(gb.buffer)).toBe('姓名,1');
  });
});
