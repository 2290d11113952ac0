import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import type { ApiError400, ApiError500 } from '../../common/api/envelope';
import { AppError } from './app-error';

/** Spec §8 shapes: 500 answers carry `message`, every other status `errorMessage`. */
export function sendError(reply: FastifyReply, status: number, errorCode: string, text: string, details?: Record<string, unknown>): FastifyReply {
  const body: ApiError400 | ApiError500 = status >= 500 ? { errorCode, message: text } : { ...details, errorCode, errorMessage: text };
  // A handler may have set download headers before failing; the error body is JSON.
  reply.removeHeader('content-disposition');
  reply.removeHeader('content-length');
  reply.removeHeader('etag');
  reply.removeHeader('content-security-policy');
  reply.removeHeader('content-type');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Fastify's validation messages name the field ("body/name must be string"): readable enough. */
function validationMessage(err: FastifyError): string {
  return `${ERRORS.VALIDATION.message}：${err.message}`;
}

/**
 * The database refused a write for want of disk space: PostgreSQL's SQLSTATE 53100 (disk_full), SQLite's
 * SQLITE_FULL. Its transaction rolled back; the operator must free space, the user may retry.
 */
function isDatabaseFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '53100' || code === 'SQLITE_FULL';
}

/** One error handler for the whole server: business errors, bad input, and never a stack trace. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return sendError(reply, err.status, err.code, err.message, err.details);
    }
    if (err.validation) return sendError(reply, 400, ERRORS.VALIDATION.code, validationMessage(err));
    const status = err.statusCode ?? 500;
    if (status === 413) return sendError(reply, 413, ERRORS.PAYLOAD_TOO_LARGE.code, ERRORS.PAYLOAD_TOO_LARGE.message);
    // Malformed JSON, unsupported content type and similar client mistakes.
    if (status >= 400 && status < 500) return sendError(reply, 400, ERRORS.VALIDATION.code, ERRORS.VALIDATION.message);
    if (isDatabaseFull(err)) {
      request.log.error({ err }, "the database's disk is full: a write was refused");
      return sendError(reply, 500, ERRORS.DATABASE_FULL.code, ERRORS.DATABASE_FULL.message);
    }
    request.log.error({ err }, 'unexpected error');
    return sendError(reply, 500, ERRORS.INTERNAL.code, ERRORS.INTERNAL.message);
  });
}
