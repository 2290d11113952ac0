import { actionLog } from '../services/action-log/recorder';
import { parseRange } from '../http/range';
import { contentHeaders, sendContent } from '../http/send-content';
import { evaluateConditions } from './conditions';
import { DavError, type DavHandler } from './context';
import type { DavDeps } from './deps';
import { etagOf } from './properties';

/**
 * GET and HEAD of a file: the bytes through DownloadService.resolve, the one decision of what the
 * caller may do with them (ByteGate: a preview-only grant gives no bytes, 403 with the reason; an
 * intercepted exchange-area file needs the web app's confirmation), recorded as file.download like
 * the web app's download. Range and If-Range as every download (http/send-content.ts), with WebDAV's strong ETag (etagOf);
 * If-None-Match / If-Modified-Since answer 304, If-Match 412. A continued Range download (not from
 * byte 0) and a 304 are not a new download in the log.
 */
export const getHandler = (deps: DavDeps): DavHandler => async (ctx) => {
  const node = ctx.target.node;
  if (!node) throw new DavError(404, '文件不存在');
  if (node.kind !== 'entry' || node.row.is_dir === 1) {
    throw new DavError(405, '这是文件夹：请用 PROPFIND 列出其内容', undefined, { Allow: 'OPTIONS, PROPFIND, DELETE, MOVE, COPY' });
  }
  const file = await deps.downloads.resolve(ctx.caller, node.row.id);
  const etag = etagOf(file.fingerprint);
  const lastModified = Number(node.row.updated_at);
  ctx.reply.header('Last-Modified', new Date(lastModified).toUTCString());
  if (evaluateConditions(ctx.request, { etag, lastModified, exists: true }) === 'not-modified') {
    actionLog.notAnAction();
    ctx.reply.code(304).header('ETag', etag).send();
    return;
  }
  if (ctx.request.method === 'HEAD') {
    // The headers a GET would carry, without opening the content (Node would read a stream to its end).
    contentHeaders(ctx.reply, file, { inline: false }, etag);
    ctx.reply.header('Content-Length', String(file.size)).send();
    return;
  }
  const range = parseRange(ctx.request.headers.range, file.size);
  if (range.kind === 'partial' && range.start > 0) actionLog.notAnAction();
  await sendContent(ctx.request, ctx.reply, file, { inline: false }, etag);
};
