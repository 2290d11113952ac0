import { PICTURE_HEAD_BYTES, pictureFormatOf } from '../../../common/files/content-signatures';
import { loadSharp } from '../sharp-on-demand';

export { watermarkText } from './watermark-text';

/** Pictures larger than this are not decoded for a watermarked preview (the preview is refused). */
export const WATERMARK_MAX_INPUT = 64 * 1024 * 1024;
/** The watermarked preview is at most this wide or high. */
const WATERMARK_MAX_SIDE = 2560;

const escapeMarkup = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Burns the watermark into a picture's pixels (sharp): a grey, half-transparent line of `text`,
 * tilted and repeated over the whole picture. Chosen over a CSS overlay in the viewer because the
 * overlay is only drawn by our page: the picture's own address, a saved copy or a screenshot of the
 * bare picture would carry nothing. The result is WebP, at most WATERMARK_MAX_SIDE px; null when the
 * bytes are not a raster picture sharp may decode (the preview is then refused).
 *
 * The text is drawn with Pango (part of sharp's libvips) in the system's sans font: it must be
 * installed on the server (Debian: fonts-dejavu-core, which Chromium pulls in).
 */
export async function watermarkPicture(bytes: Buffer, text: string): Promise<Buffer | null> {
  if (!pictureFormatOf(bytes.subarray(0, PICTURE_HEAD_BYTES))) return null;
  const sharp = await loadSharp();
  try {
    const base = sharp(bytes, { limitInputPixels: 100_000_000, pages: 1, failOn: 'error' })
      .rotate()
      .resize(WATERMARK_MAX_SIDE, WATERMARK_MAX_SIDE, { fit: 'inside', withoutEnlargement: true });
    const { data, info } = await base.toBuffer({ resolveWithObject: true });
    const side = Math.max(info.width, info.height);
    // Text sized to the picture (a line about a third of its width), never unreadably small.
    const dpi = Math.max(72, Math.min(320, Math.round(side / 8)));
    const label = await sharp({
      text: { text: `<span foreground="#808080" fgalpha="70%">${escapeMarkup(text)}</span>`, font: 'sans', dpi, rgba: true },
    })
      .png()
      .toBuffer({ resolveWithObject: true });
    const pad = Math.round(label.info.width * 0.12);
    const rotated = await sharp(label.data)
      .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .rotate(-30, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer({ resolveWithObject: true });
    // A small picture gets the line shrunk to fit (a tile may not be larger than the picture).
    const tile =
      rotated.info.width > info.width || rotated.info.height > info.height
        ? await sharp(rotated.data).resize(info.width, info.height, { fit: 'inside' }).png().toBuffer()
        : rotated.data;
    return await sharp(data).composite([{ input: tile, tile: true, blend: 'over' }]).webp({ quality: 82 }).toBuffer();
  } catch {
    return null;
  }
}
