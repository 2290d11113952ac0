import { describe, expect, it } from 'vitest';
import { nameSortKey } from '../../../common/files/name-sort-key';

const collator = new Intl.Collator('zh-CN', { numeric: true });
const byKey = (a: string, b: string): number => {
  const x = nameSortKey(a);
  const y = nameSortKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

describe('nameSortKey', () => {
  it('orders Chinese by pinyin and numbers by value, as the zh-CN collator does', () => {
    const names = ['文件10.txt', '文件2.txt', '文件1.txt', '张三', '阿里巴巴', '报告', '中国', '红色', '蓝天', '绿地', '吕', '律'];
    expect([...names].sort(byKey)).toEqual([...names].sort(collator.compare));
    expect([...names].sort(byKey).slice(0, 3)).toEqual(['阿里巴巴', '报告', '红色']);
  });

  it('agrees with the collator on every pair of a mixed corpus (case, width, accents, symbols, digits in any script, emoji)', () => {
    const corpus = [
      'a', 'A', 'b', 'B', 'ab', 'Ab', 'aB', 'a b', 'a-b', 'a_b', 'a.b', 'apple', 'Apple', 'Ａpple', 'café', 'cafe', 'Cafe', 'caff',
      'file', 'file.txt', 'file (1).txt', 'file (2).txt', 'file (10).txt', 'a9', 'A9', 'a10', 'a100', 'x1y2', 'x1y10', 'x2y1',
      '１２', '12', '２', '٣', '3', '10', '9', '_a', '-a', '(a)', '#1', '😀', '😀a', '🙂', '𠀀', '𪚥',
      '文件', '文件1', '文件 1', '文件-1', '文件_1', '文件A', '文件a', '文档', '文本', '稳', '问', '阿', '啊', '吖', 'Ω', 'ω', 'я', 'Я', 'あ', 'ア', '가',
    ];
    // Every pair the collator tells apart at base strength (letters, numbers, pinyin) is in its order;
    // pairs equal at base strength (case, width, accents) are told apart by the key's variants, in the
    // collator's order from each letter's plain ASCII form on (a < A < ａ; the pinyin tone letters
    // ā á ǎ à, which the zh collator puts before the plain letter, come after it here).
    const base = new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });
    const mismatches: string[] = [];
    for (const a of corpus) {
      for (const b of corpus) {
        const c = Math.sign(collator.compare(a, b));
        if (c === 0) continue;
        const k = byKey(a, b);
        if (k === 0) mismatches.push(`${a} = ${b}`);
        else if (base.compare(a, b) !== 0 && c !== k) mismatches.push(`${a} vs ${b}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(['Apple', 'apple', 'APPLE', 'Ａpple'].sort(byKey)).toEqual(['apple', 'Apple', 'APPLE', 'Ａpple'].sort(collator.compare));
  });

  it('records variants only where a name has them: plain names get short keys', () => {
    expect(nameSortKey('apple')).not.toContain(' ');
    expect(nameSortKey('报告 (3).docx')).not.toContain(' ');
    expect(nameSortKey('Apple')).toContain(' ');
    expect(nameSortKey('文件-12345-67890.docx').length).toBeLessThan(60);
  });

  it('gives equal names equal keys and is stable across NFC/NFD spellings', () => {
    expect(nameSortKey('café')).toBe(nameSortKey('cafe\u0301'));
    expect(nameSortKey('报告.docx')).toBe(nameSortKey('报告.docx'));
  });

  it('puts a name before the longer names it starts', () => {
    expect(byKey('报告', '报告 (1)')).toBe(-1);
    expect(byKey('file', 'file.txt')).toBe(-1);
  });
});
