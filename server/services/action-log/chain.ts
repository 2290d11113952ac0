import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ActionLogHeadsTable, ActionLogTable } from '../../db/schema';

/**
 * The hash chain of the action log. Each row's `hash` is HMAC-SHA-256 (keyed, see chain-key.ts) over
 * its canonical form, which includes `prev_hash`, the previous row's hash in the same tenant. Editing
 * any field of a row changes its hash; deleting a row leaves a gap in `seq` and a `prev_hash` that
 * points at nothing; rewriting the chain after an edit needs the key, which is not in the database.
 *
 * Canonical form (version 1): the JSON array
 *   ["v1", tenant_id, seq, at, actor_id, actor_account, actor_name, actor_role, dept_id, action,
 *    targets, names_key, detail, outcome, error_code, address, client_type, network_env, platform,
 *    user_agent, prev_hash]
 * with seq, at and client_type as JSON numbers (PostgreSQL's driver hands bigints back as strings:
 * they are turned into numbers first), every other field the exact stored string or null. Stored
 * strings are well-formed Unicode without NUL (sanitizeText), so they read back byte for byte from
 * SQLite and PostgreSQL alike. JSON.stringify of an array of strings, numbers and nulls has one
 * spelling, so the form is the same on every server and in the verify command.
 */
export const CHAIN_VERSION = 'v1';

/** prev_hash of a chain's first row (and anchor_hash of a chain never pruned). */
export const GENESIS_HASH = '0'.repeat(64);

export type ChainedFields = Omit<ActionLogTable, 'hash'>;

export function canonicalForm(row: ChainedFields): string {
  return JSON.stringify([
    CHAIN_VERSION,
    row.tenant_id,
    Number(row.seq),
    Number(row.at),
    row.actor_id,
    row.actor_account,
    row.actor_name,
    row.actor_role,
    row.dept_id,
    row.action,
    row.targets,
    row.names_key,
    row.detail,
    row.outcome,
    row.error_code,
    row.address,
    row.client_type === null ? null : Number(row.client_type),
    row.network_env,
    row.platform,
    row.user_agent,
    row.prev_hash,
  ]);
}

export function chainHash(key: Buffer, row: ChainedFields): string {
  return createHmac('sha256', key).update(canonicalForm(row), 'utf8').digest('hex');
}

/** Whether the stored hash is the one the row's fields give (constant time, as any MAC check). */
export function hashMatches(key: Buffer, row: ActionLogTable): boolean {
  const expected = Buffer.from(chainHash(key, row), 'hex');
  const stored = Buffer.from(row.hash, 'hex');
  return stored.length === expected.length && timingSafeEqual(stored, expected);
}

/** What a head's MAC covers: where the chain ends and where pruning stopped. */
export type HeadFields = Pick<ActionLogHeadsTable, 'tenant_id' | 'seq' | 'hash' | 'anchor_seq' | 'anchor_hash'>;

/**
 * The head's MAC: HMAC-SHA-256 with the chain key over ["head-v1", tenant_id, seq, hash, anchor_seq,
 * anchor_hash] (seqs as JSON numbers). The "head-v1" tag keeps it apart from any row's canonical
 * form. Without the key nobody can point a head at another row (a cut-off tail) or move its anchor;
 * what the MAC cannot stop is putting back a head's earlier values, MAC included — a checkpoint kept
 * off the server catches that (checkpoint.ts).
 */
export function headMac(key: Buffer, head: HeadFields): string {
  const form = JSON.stringify(['head-v1', head.tenant_id, Number(head.seq), head.hash, Number(head.anchor_seq), head.anchor_hash]);
  return createHmac('sha256', key).update(form, 'utf8').digest('hex');
}

/**
 * What the server writes instead of a MAC when it extends a head whose MAC did not hold (it must go
 * on recording, but must not vouch for that head): `broken:<seq>`, the row the head named then.
 * Re-MACing it would launder a cut-off tail with the next action; the mark stays until someone
 * with the key has looked (audit:verify reports it).
 */
export const BROKEN_HEAD_MARK = 'broken:';

export function brokenHeadMark(previous: string | null, seq: number): string {
  return previous?.startsWith(BROKEN_HEAD_MARK) ? previous : `${BROKEN_HEAD_MARK}${seq}`;
}

/** Whether a head's stored MAC is the one its fields give (constant time). A NULL MAC or a mark never matches. */
export function headMacMatches(key: Buffer, head: HeadFields & { mac: string | null }): boolean {
  if (head.mac === null || !/^[0-9a-f]{64}$/.test(head.mac)) return false;
  const expected = Buffer.from(headMac(key, head), 'hex');
  const stored = Buffer.from(head.mac, 'hex');
  return stored.length === expected.length && timingSafeEqual(stored, expected);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * What a stored string may hold: well-formed Unicode (a lone surrogate would come back from the
 * database as U+FFFD and break the hash), no NUL (PostgreSQL text refuses it), at most `max` UTF-16
 * units (user agents and names come from clients).
 */
export function sanitizeText(value: string, max: number): string {
  const clean = value.replace(LONE_SURROGATE, '\uFFFD').replaceAll('\u0000', '');
  if (clean.length <= max) return clean;
  // Never cut a surrogate pair in half.
  const cut = /[\uD800-\uDBFF]/.test(clean[max - 1] ?? '') ? max - 1 : max;
  return clean.slice(0, cut);
}
