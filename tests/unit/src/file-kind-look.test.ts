import { describe, expect, it } from 'vitest';
import { fileKindOf } from '../../../common/files/kind';
import { displayKindOf, FILE_KINDS, fileKindLook } from '../../../src/components/file-kind-look';

describe('file kind icons (spec §3)', () => {
  it('covers every kind of the spec, each with its own label and an encrypted variant', () => {
    expect(FILE_KINDS).toEqual(['word', 'excel', 'ppt', 'pdf', 'txt', 'picture', 'video', 'music', 'package', 'unknown', 'folder', 'groupFolder']);
    const labels = new Set(FILE_KINDS.map((k) => fileKindLook(k).label));
    expect(labels.size).toBe(FILE_KINDS.length);
    for (const kind of FILE_KINDS) {
      const plain = fileKindLook(kind);
      const encrypted = fileKindLook(kind, true);
      expect(encrypted.kind).toBe(kind);
      expect(encrypted.color).toBe(plain.color);
      expect(encrypted.label).toBe(`${plain.label}（已加密）`);
    }
  });

  it('draws a kind it does not know as unknown instead of failing', () => {
    expect(fileKindLook('hologram').kind).toBe('unknown');
    expect(fileKindLook('toString').kind).toBe('unknown');
  });

  it('maps entries: folders, group folders, and files by their kind', () => {
    expect(displayKindOf({ isDir: true, kind: 'folder' })).toBe('folder');
    expect(displayKindOf({ isDir: true, kind: 'folder' }, true)).toBe('groupFolder');
    expect(displayKindOf({ isDir: true, kind: 'groupFolder' })).toBe('groupFolder');
    expect(displayKindOf({ isDir: false, kind: fileKindOf('报告.docx', false) })).toBe('word');
    expect(displayKindOf({ isDir: false, kind: fileKindOf('a.MP4', false) })).toBe('video');
    expect(displayKindOf({ isDir: false, kind: fileKindOf('noext', false) })).toBe('unknown');
    // a file never shows a folder icon
    expect(displayKindOf({ isDir: false, kind: 'folder' })).toBe('unknown');
  });
});
