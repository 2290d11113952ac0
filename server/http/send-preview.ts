import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import type { Downloadable, Preview } from '../services/download-service';
import { WATERMARK_MAX_INPUT } from '../services/sharing/watermark';
import { AppError } from './app-error';
import { sendContent } from './send-content';

/** Reads a picture whole for the watermark (bounded), or null when it is too big to decode. */
async function pictureBytes(file: Downloadable): Promise<Buffer | null> {
  if (file.size > WATERMARK_MAX_INPUT || file.size === 0) return null;
  const parts: Buffer[] = [];
  for await (const piece of file.open() as AsyncIterable<Buffer>) parts.push(piece);
  return Buffer.concat(parts);
}

/**
 * Sends what ByteGate.view decided a preview shows (common/api/byte-access.ts): the original inline
 * with its type (Range honoured), an Office document's PDF rendition (Range honoured), or a picture with the watermark burnt in (one that cannot be decoded
 * for it has no rendition). Never an attachment. `no-store` where the grant allows viewing only.
 */
export async function sendPreview(request: FastifyRequest, reply: FastifyReply, preview: Preview, burn: (bytes: Buffer, text: string) => Promise<Buffer | null>): Promise<FastifyReply> {
  const { file, plan, watermark } = preview;
  const { rendition } = plan;
  if (rendition.as === 'watermarked-picture') {
    const bytes = await pictureBytes(file);
    const marked = bytes && watermark ? await burn(bytes, watermark) : null;
    if (!marked) throw new AppError(ERRORS.PREVIEW_UNSUPPORTED, '该图片无法添加水印预览');
    return reply
      .header('Content-Type', 'image/webp')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', 'sandbox')
      .header('Cache-Control', 'private, no-store')
      .header('Content-Disposition', 'inline')
      .send(marked);
  }
  // A grant that allows viewing only gets no content fingerprint, not even as the ETag: a validator
  // derived from it still serves If-Range.
  const shown = plan.noStore ? { ...file, fingerprint: createHash('sha256').update(`view\0${file.fingerprint}`).digest('hex') } : file;
  // An Office document's rendition (DownloadService.shown handed its PDF, never the original).
  const { contentType, sandbox } = rendition.as === 'document-pdf' ? { contentType: 'application/pdf', sandbox: false } : rendition;
  return sendContent(request, reply, shown, { inline: true, contentType, sandbox, noStore: plan.noStore });
}
