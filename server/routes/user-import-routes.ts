import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import { DEFAULT_IMPORT_FORMAT, USER_IMPORT } from '../../common/api/endpoints/user-import';
import { IMPORT_MAX_BYTES, type ImportFormat } from '../../common/api/org-types';
import { AppError } from '../http/app-error';
import { attachmentDisposition } from '../http/range';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { UserImportService } from '../services/user-import-service';

const TYPES: Record<ImportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

function sendSheet(reply: FastifyReply, file: Buffer, fileName: string, type: ImportFormat): FastifyReply {
  return reply
    .header('Content-Type', TYPES[type])
    .header('Content-Disposition', attachmentDisposition(fileName))
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(file);
}

/**
 * Reads a raw upload body into memory, refusing it as soon as it passes IMPORT_MAX_BYTES (the rest
 * is read and discarded, never kept).
 */
function readCapped(payload: Readable, done: (err: Error | null, body?: Buffer) => void): void {
  const parts: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (err: Error | null, body?: Buffer) => {
    if (finished) return;
    finished = true;
    done(err, body);
  };
  payload.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > IMPORT_MAX_BYTES) {
      parts.length = 0;
      finish(new AppError(ERRORS.IMPORT_FILE_TOO_LARGE));
      return;
    }
    if (!finished) parts.push(chunk);
  });
  payload.on('end', () => finish(null, Buffer.concat(parts)));
  payload.on('error', (err) => finish(err));
}

/** 批量新增 (admin only; declared in common/api/endpoints/user-import.ts). */
export function registerUserImportRoutes(app: FastifyInstance, imports: UserImportService): void {
  route(app, USER_IMPORT.template, async (request, reply) => {
    const type = request.query.format ?? DEFAULT_IMPORT_FORMAT;
    return sendSheet(reply, await imports.template(callerOf(request), type), `用户导入模板.${type}`, type);
  });

  void app.register(async (scope) => {
    scope.addContentTypeParser('*', (_request, payload, done) => readCapped(payload, done));
    route(
      scope,
      USER_IMPORT.preview,
      async (request) => {
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError(ERRORS.IMPORT_EMPTY);
        return { data: await imports.preview(callerOf(request), request.query.name ?? '', body) };
      },
      {
        bodyLimit: IMPORT_MAX_BYTES + 1,
        // A declared length over the cap is refused before a byte of the body is parsed. Node then
        // discards whatever of the body still arrives (nothing is kept): closing the connection
        // instead would make a client that is still writing see a reset rather than this answer.
        onRequest: async (request) => {
          if (Number(request.headers['content-length'] ?? 0) > IMPORT_MAX_BYTES) throw new AppError(ERRORS.IMPORT_FILE_TOO_LARGE);
        },
      },
    );
  });

  route(app, USER_IMPORT.commit, async (request) => ({ data: await imports.commit(callerOf(request), request.body) }));
  route(app, USER_IMPORT.result, async (request, reply) => {
    const format = request.query.format ?? DEFAULT_IMPORT_FORMAT;
    const { file, fileName } = await imports.result(callerOf(request), request.query.batchId, format);
    return sendSheet(reply, file, fileName, format);
  });
}
