import { describe, expect, it } from 'vitest';
import { byteVerdict, renditionOf, viewsOnly, type ByteGrant, type ByteUse } from '../../../common/api/byte-access';

const USES: ByteUse[] = ['view', 'read', 'download', 'edit'];

describe('the byte decision (common/api/byte-access.ts)', () => {
  it('answers the table written in its doc comment', () => {
    const table: Array<[string, ByteGrant, string[]]> = [
      ['own', { via: 'own' }, ['yes', 'yes', 'yes', 'yes']],
      ['share 预览', { via: 'share', permission: 'preview' }, ['yes', 'view-only', 'view-only', 'view-only']],
      ['share 下载', { via: 'share', permission: 'download' }, ['yes', 'yes', 'yes', 'no']],
      ['share 编辑', { via: 'share', permission: 'edit' }, ['yes', 'yes', 'yes', 'yes']],
      ['link, preview-only', { via: 'link', previewOnly: true }, ['yes', 'view-only', 'view-only', 'no']],
      ['link', { via: 'link', previewOnly: false }, ['yes', 'counted', 'counted', 'no']],
      ['ticket', { via: 'ticket' }, ['no', 'no', 'yes', 'no']],
    ];
    for (const [label, grant, verdicts] of table) expect(USES.map((u) => byteVerdict(grant, u)), label).toEqual(verdicts);
  });

  it('renditions: as they are for all; a preview-only grant sees raster pictures watermarked; Office files as their PDF; nothing for the rest', () => {
    const own: ByteGrant = { via: 'own' };
    const viewer: ByteGrant = { via: 'share', permission: 'preview' };
    expect(viewsOnly(viewer)).toBe(true);
    expect(viewsOnly({ via: 'link', previewOnly: false })).toBe(false);
    expect(renditionOf('a.pdf', own)).toEqual({ as: 'original', contentType: 'application/pdf', sandbox: false });
    expect(renditionOf('a.pdf', viewer)).toEqual({ as: 'original', contentType: 'application/pdf', sandbox: false });
    expect(renditionOf('a.png', own)).toEqual({ as: 'original', contentType: 'image/png', sandbox: true });
    expect(renditionOf('a.png', viewer)).toEqual({ as: 'watermarked-picture' });
    expect(renditionOf('a.tiff', viewer)).toEqual({ as: 'watermarked-picture' });
    expect(renditionOf('a.tiff', own)).toBeNull();
    // Office files are shown as their PDF rendition (issue 41), to a preview-only grant too.
    expect(renditionOf('x.docx', own)).toEqual({ as: 'document-pdf' });
    expect(renditionOf('x.pptx', viewer)).toEqual({ as: 'document-pdf' });
    for (const name of ['report.bin', 'page.html', 'logo.svg', 'noext']) {
      expect(renditionOf(name, own), name).toBeNull();
      expect(renditionOf(name, viewer), name).toBeNull();
    }
  });
});
