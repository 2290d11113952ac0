import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { ERRORS } from '../../common/api/errors';
import { IMPORT_MAX_BYTES, type ImportCommitRequest, type ImportFormat, type ImportPreview, type ImportResult } from '../../common/api/org-types';
import { API } from '../../common/api/paths';
import { AppError } from '../http/app-error';
import { attachmentDisposition } from '../http/range';
import { callerOf } from '../http/session-guard';
import type { UserImportService } from '../services/user-import-service';
import { idString } from './schemas';

const adminOnly = { adminOnly: true } as const;
const format = { type: 'string', enum: ['xlsx', 'csv'], default: 'xlsx' } as const;
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

/** 批量新增 (admin only): template, preview of an uploaded sheet, import, result (rules in org-types.ts). */
export function registerUserImportRoutes(app: FastifyInstance, imports: UserImportService): void {
  app.get(
    API.userImportTemplate,
    { config: adminOnly, schema: { querystring: { type: 'object', properties: { format } } } },
    async (request, reply) => {
      const type = (request.query as { format: ImportFormat }).format;
      return sendSheet(reply, await imports.template(callerOf(request), type), `用户导入模板.${type}`, type);
    },
  );

  void app.register(async (scope) => {
    scope.addContentTypeParser('*', (_request, payload, done) => readCapped(payload, done));
    scope.post(
      API.userImportPreview,
      {
        config: adminOnly,
        bodyLimit: IMPORT_MAX_BYTES + 1,
        schema: { querystring: { type: 'object', properties: { name: { type: 'string', maxLength: 255 } } } },
        // A declared length over the cap is refused before a byte of the body is parsed. Node then
        // discards whatever of the body still arrives (nothing is kept): closing the connection
        // instead would make a client that is still writing see a reset rather than this answer.
        onRequest: async (request) => {
          if (Number(request.headers['content-length'] ?? 0) > IMPORT_MAX_BYTES) throw new AppError(ERRORS.IMPORT_FILE_TOO_LARGE);
        },
      },
      async (request): Promise<ApiOk<ImportPreview>> => {
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError(ERRORS.IMPORT_EMPTY);
        const name = (request.query as { name?: string }).name ?? '';
        return { data: await imports.preview(callerOf(request), name, body) };
      },
    );
  });

  app.post(
    API.userImportCommit,
    { config: adminOnly, schema: { body: { type: 'object', required: ['batchId', 'password'], properties: { batchId: idString, password: { type: 'string', maxLength: 512 } } } } },
    async (request): Promise<ApiOk<ImportResult>> => ({ data: await imports.commit(callerOf(request), request.body as ImportCommitRequest) }),
  );
  app.get(
    API.userImportResult,
    { config: adminOnly, schema: { querystring: { type: 'object', required: ['batchId'], properties: { batchId: idString, format } } } },
    async (request, reply) => {
      const q = request.query as { batchId: string; format: ImportFormat };
      const { file, fileName } = await imports.result(callerOf(request), q.batchId, q.format);
      return sendSheet(reply, file, fileName, q.format);
    },
  );
}
