import type { Kysely, Migration } from 'kysely';

/**
 * The action log's heads carry a MAC (issue 35): HMAC-SHA-256 with the chain key over the tenant, the
 * last seq and hash and the prune anchor (services/action-log/chain.ts, headMac). Without it anyone
 * who can write the database could cut the newest rows and point the head at the new last row.
 *
 * The key is not in the database, so this migration cannot compute the MACs of existing heads: it
 * leaves them NULL, and the server that ran it seals them once, at that start, before any request
 * (app.ts). A NULL MAC found later is reported by audit:verify and never sealed again.
 */
export const m0083_action_log_head_mac: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('action_log_heads').addColumn('mac', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('action_log_heads').dropColumn('mac').execute();
  },
};
