import { CLIENT_KEY_PATTERN } from '../../common/transfer/protocol';
/**
 * JSON schema pieces shared by routes. Fastify validates with them before any service runs, so bad
 * input is refused with 400 REQ-2001. Names get only a length bound here: their content rules belong
 * to checkFileName, which answers with the specific coded error.
 */
export const idString = { type: 'string', minLength: 1, maxLength: 64 } as const;
export const nullableId = { anyOf: [idString, { type: 'null' }] } as const;
export const category = { type: 'integer', minimum: 1, maximum: 1000 } as const;
export const nameString = { type: 'string', maxLength: 1024 } as const;
export const sha256Hex = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;
/** The client's id for an upload item (protocol.ts, "Finished uploads"). */
export const clientKey = { type: 'string', pattern: CLIENT_KEY_PATTERN } as const;
export const conflictPolicy = { type: 'string', enum: ['fail', 'newVersion', 'rename'] } as const;
/** IfMatch (common/transfer/protocol.ts): replace only this file at this content. */
export const ifMatch = {
  type: 'object',
  required: ['fileId', 'fingerprint'],
  properties: { fileId: { type: 'string', minLength: 1, maxLength: 64 }, fingerprint: { anyOf: [{ type: 'string', pattern: '^[0-9a-f]{64}$' }, { type: 'null' }] } },
} as const;
/** A group space id or 'public' (PUBLIC_SPACE_ID); null/absent = personal files. */
export const spaceId = { anyOf: [idString, { type: 'null' }] } as const;
/** Batch calls: 1..BATCH_MAX_IDS ids (common/api/types.ts). */
export const idList = { type: 'array', items: idString, minItems: 1, maxItems: 1000 } as const;
/** Per-id conflict decisions (ConflictDecision). */
export const decisions = {
  type: 'object',
  maxProperties: 1000,
  additionalProperties: { type: 'string', enum: ['rename', 'overwrite', 'skip'] },
} as const;
