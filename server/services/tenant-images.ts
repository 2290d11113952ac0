import { ERRORS } from '../../common/api/errors';
import { TENANT_BACKGROUND_MAX_BYTES, TENANT_LOGO_MAX_BYTES } from '../../common/api/tenant';
import { PICTURE_HEAD_BYTES, pictureFormatOf } from '../../common/files/content-signatures';
import { AppError } from '../http/app-error';
import { loadSharp } from './sharp-on-demand';

export type TenantPictureKind = 'logo' | 'background' | 'avatar';

const SHAPES: Record<TenantPictureKind, { maxBytes: number; width: number; height: number; quality: number }> = {
  logo: { maxBytes: TENANT_LOGO_MAX_BYTES, width: 512, height: 512, quality: 90 },
  background: { maxBytes: TENANT_BACKGROUND_MAX_BYTES, width: 2560, height: 1600, quality: 80 },
  // A user's avatar (user-profile-service.ts): as large a file as a logo, kept at 256 px.
  avatar: { maxBytes: TENANT_LOGO_MAX_BYTES, width: 256, height: 256, quality: 85 },
};

/** Formats a tenant picture may come in, by its bytes. SVG never: it can carry scripts. */
const ACCEPTED = new Set(['png', 'jpeg', 'webp', 'gif']);

/**
 * A picture an admin sent (base64, a `data:` prefix allowed) as the WebP the server keeps: the size
 * is checked on the decoded bytes, the format by its first bytes (whatever the data URL claims), and
 * the picture is decoded and encoded anew by sharp (first frame only, EXIF orientation applied and
 * metadata dropped, fitted into the kind's box), so nothing of the sender's file but its pixels is
 * ever served.
 */
export async function reencodeTenantPicture(data: string, kind: TenantPictureKind): Promise<Buffer> {
  const shape = SHAPES[kind];
  const base64 = data.replace(/^data:[^,]{0,100},/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length === 0) throw new AppError(ERRORS.TENANT_IMAGE_INVALID);
  // Decoded size, before decoding: 3 bytes per 4 characters.
  if (Math.floor((base64.length * 3) / 4) > shape.maxBytes + 2) throw new AppError(ERRORS.TENANT_IMAGE_TOO_LARGE);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > shape.maxBytes) throw new AppError(ERRORS.TENANT_IMAGE_TOO_LARGE);
  const format = pictureFormatOf(bytes.subarray(0, PICTURE_HEAD_BYTES));
  if (!format || !ACCEPTED.has(format)) throw new AppError(ERRORS.TENANT_IMAGE_INVALID);
  const sharp = await loadSharp();
  try {
    return await sharp(bytes, { limitInputPixels: 50_000_000, pages: 1, failOn: 'error' })
      .rotate()
      .resize(shape.width, shape.height, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: shape.quality })
      .toBuffer();
  } catch {
    throw new AppError(ERRORS.TENANT_IMAGE_INVALID);
  }
}
