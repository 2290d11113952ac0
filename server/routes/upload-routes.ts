import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { API } from '../../common/api/paths';
import type { ApiOk } from '../../common/api/envelope';
import type { FileEntry } from '../../common/api/types';
import type {
  ChunkExistRequest,
  ChunkExistResponse,
  ChunkMergeRequest,
  ChunkRangeUploadResponse,
  ChunkUploadResponse,
  UploadConfig,
} from '../../common/transfer/protocol';
import { chunkBodyLimit, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE } from '../../common/transfer/chunk-policy';
import { HEADER_CHUNK_SHA256 } from '../../common/transfer/constants';
import { callerOf } from '../http/session-guard';
import type { UploadService } from '../services/upload-service';
import { category, clientKey, conflictPolicy, idString, ifMatch, nameString, nullableId, sha256Hex } from './schemas';

export function registerUploadRoutes(app: FastifyInstance, uploads: UploadService, chunkSize: number): void {
  app.get(API.uploadConfig, async (): Promise<ApiOk<UploadConfig>> => ({ data: uploads.config() }));

  app.post(
    API.chunkExist,
    {
      schema: {
        body: {
          type: 'object',
          // fingerprint + chunkDigests: both (announced session) or neither (streaming; the service checks).
          required: ['size', 'chunkSize', 'name', 'parentId', 'category'],
          properties: {
            fingerprint: sha256Hex,
            uploadId: idString,
            size: { type: 'integer', minimum: 0 },
            chunkSize: { type: 'integer', minimum: MIN_CHUNK_SIZE, maximum: MAX_CHUNK_SIZE },
            // Upper bound keeps the JSON small; the service checks the exact count.
            chunkDigests: { type: 'array', items: sha256Hex, minItems: 1, maxItems: 100_000 },
            name: nameString,
            parentId: nullableId,
            category,
            clientKey,
          },
        },
      },
    },
    async (request): Promise<ApiOk<ChunkExistResponse>> => ({
      data: await uploads.chunkExist(callerOf(request), request.body as ChunkExistRequest),
    }),
  );

  app.post(
    API.chunkMerge,
    {
      schema: {
        body: {
          type: 'object',
          required: ['uploadId', 'name', 'parentId', 'category'],
          properties: {
            uploadId: idString,
            name: nameString,
            parentId: nullableId,
            category,
            onConflict: conflictPolicy,
            ifMatch,
            fingerprint: sha256Hex,
            chunkDigests: { type: 'array', items: sha256Hex, minItems: 1, maxItems: 100_000 },
            clientKey,
          },
        },
      },
    },
    async (request): Promise<ApiOk<FileEntry>> => ({ data: await uploads.merge(callerOf(request), request.body as ChunkMergeRequest) }),
  );

  // Raw chunk bodies: a scope of their own so the pass-through parser applies to this route only.
  void app.register(async (scope) => {
    const passThrough = (_req: unknown, payload: Readable, done: (err: Error | null, body?: Readable) => void) => done(null, payload);
    scope.addContentTypeParser('application/octet-stream', passThrough);
    scope.addContentTypeParser('*', passThrough);
    scope.post(
      API.chunkUpload,
      {
        // The service stops reading at the expected length (a range upload: the range's, up to a whole
        // file); Fastify does not apply bodyLimit to a pass-through parser, this documents a chunk's bound.
        bodyLimit: chunkBodyLimit(chunkSize),
        schema: {
          querystring: {
            type: 'object',
            required: ['uploadId', 'index'],
            properties: {
              uploadId: idString,
              index: { type: 'integer', minimum: 0 },
              offset: { type: 'integer', minimum: 0, default: 0 },
              through: { type: 'integer', minimum: 0 },
            },
          },
        },
      },
      async (request): Promise<ApiOk<ChunkUploadResponse | ChunkRangeUploadResponse>> => {
        // An answer given before the body's end (a refusal) leaves the rest to http/readable-refusals.ts.
        const { uploadId, index, offset, through } = request.query as { uploadId: string; index: number; offset?: number; through?: number };
        const digestHeader = request.headers[HEADER_CHUNK_SHA256.toLowerCase()];
        const digest = typeof digestHeader === 'string' ? digestHeader : undefined;
        const lengthHeader = request.headers['content-length'];
        const declared = lengthHeader === undefined ? undefined : Number(lengthHeader);
        // An empty chunk (empty file) may arrive without a parsed body.
        const body = request.body instanceof Readable ? request.body : Readable.from([]);
        const caller = callerOf(request);
        if (through !== undefined) {
          return { data: await uploads.chunkRangeUpload(caller, uploadId, index, through, digest, declared, body, undefined, offset ?? 0) };
        }
        return { data: await uploads.chunkUpload(caller, uploadId, index, digest, declared, body, undefined, offset ?? 0) };
      },
    );
  });
}
