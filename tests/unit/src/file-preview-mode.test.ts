import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../common/api/types';
import { mayDownload, previewModeOf, TEXT_PREVIEW_MAX_BYTES } from '../../../src/features/files/preview/preview-mode';

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
    // An Office document previews as its PDF rendition (issue 41).
    expect(previewModeOf(file('excel', 'a.xlsx'))).toBe('pdf');
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

describe('preview modes follow the byte decision (common/api/byte-access.ts)', () => {
  const shared = (permission: 'preview' | 'download' | 'edit', kind: Parameters<typeof previewModeOf>[0]['kind'], name: string) => ({
    ...file(kind, name),
    share: { permission, rootId: 'r', sharedBy: { id: 'u', nickName: 'u' } } as unknown as FileEntry['share'],
  });

  it('a preview-only share sees any raster picture (watermarked by the server), never SVG nor a type without a rendition', () => {
    expect(previewModeOf(shared('preview', 'picture', 'scan.tiff'))).toBe('image');
    expect(previewModeOf(shared('preview', 'picture', 'a.png'))).toBe('image');
    expect(previewModeOf(shared('preview', 'picture', 'logo.svg'))).toBeNull();
    expect(previewModeOf(shared('preview', 'unknown', 'report.bin'))).toBeNull();
    expect(previewModeOf(shared('preview', 'pdf', 'a.pdf'))).toBe('pdf');
  });

  it('others see only what a browser shows as it is: no TIFF, XML as text', () => {
    expect(previewModeOf(file('picture', 'scan.tiff'))).toBeNull();
    expect(previewModeOf(shared('download', 'picture', 'scan.tiff'))).toBeNull();
    expect(previewModeOf(file('txt', 'feed.xml'))).toBe('text');
    expect(previewModeOf(file('video', 'clip.avi'))).toBeNull();
  });

  it('download is offered only where the grant allows it', () => {
    expect(mayDownload({})).toBe(true);
    expect(mayDownload(shared('download', 'unknown', 'x.bin'))).toBe(true);
    expect(mayDownload(shared('edit', 'unknown', 'x.bin'))).toBe(true);
    expect(mayDownload(shared('preview', 'unknown', 'x.bin'))).toBe(false);
  });
});
