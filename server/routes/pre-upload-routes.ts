/**
 * What a client asks before it sends a file's bytes (common/transfer/checks.ts, second-upload.ts):
 * instant second upload, the pre-upload checks, and the user's decisions on held items.
 */
import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import { requirePlatformHeader } from '../http/client-headers';
import type { InterceptedFile } from '../../common/api/sharing';
import type { Caller } from '../services/caller';
import type {
  CanBeUploadTypeRequest,
  CanBeUploadTypeResponse,
  FileVersionCheckRequest,
  FileVersionCheckResponse,
  MultipleFileCheckRequest,
  MultipleFileCheckResponse,
  RelativePathDirCreateRequest,
  RelativePathDirCreateResponse,
  SensitiveOrLockRequest,
  SensitiveOrLockResult,
  UnprocessedUpload,
  UploadDecision,
} from '../../common/transfer/checks';
import type { SecondUploadRequest, SecondUploadResponse } from '../../common/transfer/second-upload';
import { callerOf } from '../http/session-guard';
import { CHECK_BATCH_MAX, type CheckService } from '../services/check-service';
import type { SecondUploadService } from '../services/second-upload-service';
import { category, clientKey, conflictPolicy, ifMatch, nameString, nullableId, sha256Hex } from './schemas';

const candidate = {
  type: 'object',
  required: ['key', 'name', 'size', 'parentId', 'category'],
  properties: {
    key: { type: 'string', minLength: 1, maxLength: 256 },
    name: nameString,
    size: { type: 'integer', minimum: 0 },
    parentId: nullableId,
    category,
  },
} as const;
const candidates = {
  type: 'object',
  required: ['items'],
  properties: { items: { type: 'array', items: candidate, maxItems: CHECK_BATCH_MAX } },
} as const;
const keyString = { type: 'string', minLength: 1, maxLength: 256 } as const;

export function registerPreUploadRoutes(
  app: FastifyInstance,
  secondUploads: SecondUploadService,
  checks: CheckService,
  /** The exchange area's intercepted files (unProcess/list?scope=exchange). */
  intercepted?: (caller: Caller) => Promise<InterceptedFile[]>,
): void {
  app.post(
    API.secondUpload,
    {
      schema: {
        body: {
          type: 'object',
          // Without fingerprint: a probe (common/transfer/second-upload.ts).
          required: ['size', 'name', 'parentId', 'category'],
          properties: {
            fingerprint: sha256Hex,
            size: { type: 'integer', minimum: 0 },
            name: nameString,
            parentId: nullableId,
            category,
            onConflict: conflictPolicy,
            ifMatch,
            proof: {
              type: 'object',
              required: ['challengeId', 'hmac'],
              properties: { challengeId: { type: 'string', maxLength: 64 }, hmac: { type: 'string', maxLength: 128 } },
            },
            clientKey,
          },
        },
      },
    },
    async (request): Promise<ApiOk<SecondUploadResponse>> => ({
      data: await secondUploads.secondUpload(callerOf(request), request.body as SecondUploadRequest),
    }),
  );

  app.post(
    API.canBeUploadType,
    {
      schema: {
        body: {
          type: 'object',
          required: ['names'],
          properties: { names: { type: 'array', items: nameString, maxItems: CHECK_BATCH_MAX } },
        },
      },
    },
    async (request): Promise<ApiOk<CanBeUploadTypeResponse>> => ({
      data: await checks.canBeUploadType(callerOf(request), request.body as CanBeUploadTypeRequest),
    }),
  );

  app.post(
    API.checkFileSensitiveOrLock,
    { schema: { body: candidates } },
    async (request): Promise<ApiOk<SensitiveOrLockResult[]>> => ({
      data: await checks.sensitiveOrLock(callerOf(request), request.body as SensitiveOrLockRequest),
    }),
  );

  app.post(
    API.fileVersionCheck,
    {
      schema: {
        body: {
          type: 'object',
          required: ['name', 'parentId', 'category'],
          properties: { name: nameString, parentId: nullableId, category },
        },
      },
    },
    async (request): Promise<ApiOk<FileVersionCheckResponse>> => ({
      data: await checks.fileVersionCheck(callerOf(request), request.body as FileVersionCheckRequest),
    }),
  );

  app.post(
    API.multipleFileCheck,
    { schema: { body: candidates } },
    async (request): Promise<ApiOk<MultipleFileCheckResponse>> => ({
      data: await checks.multipleFileCheck(callerOf(request), request.body as MultipleFileCheckRequest),
    }),
  );

  app.post(
    API.relativePathDirCreate,
    {
      schema: {
        body: {
          type: 'object',
          required: ['parentId', 'category', 'relativePaths'],
          properties: {
            parentId: nullableId,
            category,
            relativePaths: { type: 'array', items: { type: 'string', maxLength: 4096 }, maxItems: CHECK_BATCH_MAX },
          },
        },
      },
    },
    async (request): Promise<ApiOk<RelativePathDirCreateResponse>> => ({
      data: await checks.relativePathDirCreate(callerOf(request), request.body as RelativePathDirCreateRequest),
    }),
  );

  app.get(
    API.keepOnUpload,
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['key', 'policy'],
          properties: { key: keyString, policy: { type: 'string', enum: ['newVersion', 'rename'] } },
        },
      },
    },
    async (request): Promise<ApiOk<UploadDecision>> => {
      requirePlatformHeader(request);
      return { data: await checks.keep(callerOf(request), request.query as UploadDecision) };
    },
  );

  app.get(
    API.giveUpUpload,
    { schema: { querystring: { type: 'object', required: ['key'], properties: { key: keyString } } } },
    async (request): Promise<ApiOk<{ key: string }>> => {
      requirePlatformHeader(request);
      return { data: await checks.giveUp(callerOf(request), (request.query as { key: string }).key) };
    },
  );

  app.get(
    API.unProcessList,
    { schema: { querystring: { type: 'object', properties: { scope: { type: 'string', enum: ['upload', 'exchange'] } } } } },
    async (request): Promise<ApiOk<UnprocessedUpload[] | InterceptedFile[]>> => {
      // scope=exchange: files the exchange area intercepted (sharing.ts); default: held uploads.
      if ((request.query as { scope?: string }).scope === 'exchange' && intercepted) return { data: await intercepted(callerOf(request)) };
      return { data: await checks.listUnprocessed(callerOf(request)) };
    },
  );
}
