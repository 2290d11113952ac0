import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { ActionLogCheckpoint } from '../../../common/api/action-log';

/**
 * Signed checkpoints of the chains' heads (issue 35). The head's MAC (chain.ts) stops anyone without
 * the chain key from moving a head, but not from putting back earlier values of it, MAC and all,
 * after cutting the rows that followed. A checkpoint kept off the server closes that: signed with
 * an Ed25519 key (asymmetric, so whoever holds only the public key — an auditor, another server —
 * can check it and cannot make one), it states that row `seq` had hash `hash` at `at`; a chain that
 * no longer reaches that row with that hash lost rows after it (verify-checkpoints.ts).
 *
 * Format and signed message: ActionLogCheckpoint in common/api/action-log.ts.
 */
export const CHECKPOINT_FORMAT = 'drive-audit-checkpoint';
const SIGNED_TAG = 'drive-audit-checkpoint/v1';

/** The server's checkpoint key (storage/checkpoint-key.ts). */
export interface CheckpointSigner {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI DER, base64. */
  publicKeyBase64: string;
  keyId: string;
}

export function publicKeyBase64(publicKey: KeyObject): string {
  return publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
}

export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 32);
}

function signedMessage(c: Pick<ActionLogCheckpoint, 'tenantId' | 'seq' | 'hash' | 'at'>): Buffer {
  return Buffer.from(JSON.stringify([SIGNED_TAG, c.tenantId, c.seq, c.hash, c.at]), 'utf8');
}

export function signCheckpoint(signer: CheckpointSigner, head: { tenantId: string; seq: number; hash: string }, at: number): ActionLogCheckpoint {
  const fields = { tenantId: head.tenantId, seq: head.seq, hash: head.hash, at };
  return {
    format: CHECKPOINT_FORMAT,
    version: 1,
    ...fields,
    time: new Date(at).toISOString(),
    keyId: signer.keyId,
    publicKey: signer.publicKeyBase64,
    // Ed25519 takes no digest name (null): the message is signed whole.
    signature: sign(null, signedMessage(fields), signer.privateKey).toString('base64'),
  };
}

/** What a file held: one checkpoint, an array of them, or one per line. */
export function parseCheckpointFile(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  try {
    const whole = JSON.parse(trimmed) as unknown;
    return Array.isArray(whole) ? whole : [whole];
  } catch {
    // not one JSON document: one per line
  }
  return trimmed
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return line;
      }
    });
}

export type CheckedCheckpoint = { ok: true; checkpoint: ActionLogCheckpoint } | { ok: false; problem: string; checkpoint?: ActionLogCheckpoint };

const HEX64 = /^[0-9a-f]{64}$/;

function isCheckpoint(v: unknown): v is ActionLogCheckpoint {
  const c = v as Partial<ActionLogCheckpoint> | null;
  return (
    typeof c === 'object' && c !== null && c.format === CHECKPOINT_FORMAT && c.version === 1 &&
    typeof c.tenantId === 'string' && Number.isSafeInteger(c.seq) && (c.seq as number) >= 0 &&
    typeof c.hash === 'string' && HEX64.test(c.hash) && Number.isSafeInteger(c.at) &&
    typeof c.keyId === 'string' && typeof c.publicKey === 'string' && typeof c.signature === 'string'
  );
}

/**
 * Whether a checkpoint is well formed, signed by one of the `trusted` keys (by key id) and its
 * signature holds over its fields. The key it carries must be that trusted key: a checkpoint
 * signed by any other key proves nothing about this server's log.
 */
export function checkCheckpoint(value: unknown, trusted: ReadonlyMap<string, KeyObject>): CheckedCheckpoint {
  if (!isCheckpoint(value)) return { ok: false, problem: 'not a checkpoint (format drive-audit-checkpoint, version 1, with tenantId, seq, hash, at, keyId, publicKey, signature)' };
  const key = trusted.get(value.keyId);
  if (!key) return { ok: false, checkpoint: value, problem: `signed by key ${value.keyId}, which is not this server's checkpoint key (give its public key with --public-key)` };
  if (publicKeyBase64(key) !== value.publicKey) return { ok: false, checkpoint: value, problem: `its public key is not the key ${value.keyId} names` };
  let holds = false;
  try {
    holds = verify(null, signedMessage(value), key, Buffer.from(value.signature, 'base64'));
  } catch {
    holds = false;
  }
  return holds ? { ok: true, checkpoint: value } : { ok: false, checkpoint: value, problem: 'its signature does not hold: the checkpoint was changed after it was signed' };
}

/** A public key from a PEM file's text (SPKI) or base64 SPKI DER (a checkpoint's publicKey). */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  return createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
}
