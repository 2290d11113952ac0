import { describe, expect, it } from 'vitest';
import { previewModeOf, TEXT_PREVIEW_MAX_BYTES } from '../../../src/features/files/preview-mode';

const file = (kind: Parameters<typeof previewModeOf>[0]['kind'], name: string, size = 10) => ({ isDir: false, kind, name, size });

describe('preview modes', () => {
  it('previews pictures, PDF, text, audio and video', () => {
    expect(previewModeOf(file('picture', 'a.png'))).toBe('image');
    expect(previewModeOf(file('pdf', 'a.pdf'))).toBe('pdf');
    expect(previewModeOf(file('txt', 'a.txt'))).toBe('text');
    expect(previewModeOf(file('music', 'a.mp3'))).toBe('audio');
    expect(previewModeOf(file('video', 'a.mp4'))).toBe('video');
  });

  it('shows a CSV of any size as a table of its first rows', () => {
    expect(previewModeOf(file('excel', '名单.CSV'))).toBe('csv');
    expect(previewModeOf(file('excel', 'big.csv', 5 * 1024 ** 3))).toBe('csv');
    expect(previewModeOf(file('excel', 'a.xlsx'))).toBeNull();
  });

  it('downloads every other kind, folders never preview', () => {
    for (const kind of ['word', 'excel', 'ppt', 'package', 'unknown'] as const) expect(previewModeOf(file(kind, 'x'))).toBeNull();
    expect(previewModeOf({ isDir: true, kind: 'folder', name: 'd', size: 0 })).toBeNull();
  });

  it('never shows a user SVG inline, nor reads a huge text file into the page', () => {
    expect(previewModeOf(file('picture', 'logo.SVG'))).toBeNull();
    expect(previewModeOf(file('txt', 'big.log', TEXT_PREVIEW_MAX_BYTES + 1))).toBeNull();
    expect(previewModeOf(file('txt', 'ok.log', TEXT_PREVIEW_MAX_BYTES))).toBe('text');
  });
});
