import type { FastifyRequest } from 'fastify';
import { DavError } from './context';

/** XML request bodies (PROPFIND, PROPPATCH, LOCK) are small; anything larger is refused. */
export const XML_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a small request body (the raw stream: the /dav/ routes leave bodies unparsed). Over `limit`
 * answers 413 without reading further.
 */
export async function readSmallBody(request: FastifyRequest, limit = XML_BODY_LIMIT): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? '0');
  if (declared > limit) throw new DavError(413, `请求体过大（上限 ${limit} 字节）`);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw new DavError(413, `请求体过大（上限 ${limit} 字节）`);
    parts.push(buf);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Whether the request announced a body (a length above 0, or chunked). */
export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
