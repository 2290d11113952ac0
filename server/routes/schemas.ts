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
export const conflictPolicy = { type: 'string', enum: ['fail', 'newVersion', 'rename'] } as const;
