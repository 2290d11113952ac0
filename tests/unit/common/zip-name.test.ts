import { describe, expect, it } from 'vitest';
import { archiveBaseName } from '../../../common/files/zip-name';

describe('archiveBaseName', () => {
  it('names a lone folder after itself and a lone file after its name without the extension', () => {
    expect(archiveBaseName([{ name: '季度资料', isDir: true }])).toBe('季度资料');
    expect(archiveBaseName([{ name: '报告.final.docx', isDir: false }])).toBe('报告.final');
    expect(archiveBaseName([{ name: '.env', isDir: false }])).toBe('.env');
  });
  it('names several entries after the first and the count', () => {
    const entries = [{ name: '报告.docx', isDir: false }, { name: 'b', isDir: true }, { name: 'c.txt', isDir: false }];
    expect(archiveBaseName(entries)).toBe('报告 等3个文件');
    expect(archiveBaseName([{ name: '资料', isDir: true }, { name: 'x.txt', isDir: false }])).toBe('资料 等2个文件');
  });
  it('falls back to 打包下载 for nothing', () => {
    expect(archiveBaseName([])).toBe('打包下载');
  });
});
