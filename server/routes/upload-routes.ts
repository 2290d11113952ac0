import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { UPLOADS } from '../../common/api/endpoints/uploads';
import { chunkBodyLimit } from '../../common/transfer/chunk-policy';
import { HEADER_CHUNK_SHA256 } from '../../common/transfer/constants';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { UploadService } from '../services/upload-service';

/** The chunked upload protocol (declared in common/api/endpoints/uploads.ts). */
export function registerUploadRoutes(app: FastifyInstance, uploads: UploadService, chunkSize: number): void {
  route(app, UPLOADS.config, async () => ({ data: uploads.config() }));
  route(app, UPLOADS.chunkExist, async (request) => ({ data: await uploads.chunkExist(callerOf(request), request.body) }));
  route(app, UPLOADS.chunkMerge, async (request) => ({ data: await uploads.merge(callerOf(request), request.body) }));

  // Raw chunk bodies: a scope of their own so the pass-through parser applies to this route only.
  void app.register(async (scope) => {
    const passThrough = (_req: unknown, payload: Readable, done: (err: Error | null, body?: Readable) => void) => done(null, payload);
    scope.addContentTypeParser('application/octet-stream', passThrough);
    scope.addContentTypeParser('*', passThrough);
    route(
      scope,
      UPLOADS.chunkUpload,
      async (request) => {
        // An answer given before the body's end (a refusal) leaves the rest to http/readable-refusals.ts.
        const { uploadId, index, offset, through, purpose } = request.query;
        const digestHeader = request.headers[HEADER_CHUNK_SHA256.toLowerCase()];
        const digest = typeof digestHeader === 'string' ? digestHeader : undefined;
        const lengthHeader = request.headers['content-length'];
        const declared = lengthHeader === undefined ? undefined : Number(lengthHeader);
        // The pass-through parser's stream; an empty chunk (empty file) may arrive without a parsed body.
        const raw: unknown = request.body;
        const body = raw instanceof Readable ? raw : Readable.from([]);
        const caller = callerOf(request);
        if (through !== undefined) {
          return { data: await uploads.chunkRangeUpload(caller, uploadId, index, through, digest, declared, body, undefined, offset ?? 0, purpose) };
        }
        return { data: await uploads.chunkUpload(caller, uploadId, index, digest, declared, body, undefined, offset ?? 0, purpose) };
      },
      // The service stops reading at the expected length (a range upload: the range's, up to a whole
      // file); Fastify does not apply bodyLimit to a pass-through parser, this documents a chunk's bound.
      { bodyLimit: chunkBodyLimit(chunkSize) },
    );
  });
}
