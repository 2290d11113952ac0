import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A link ticket gives one copy (issue 35): it counts the bytes it hands out instead of a used flag.
 * `served` is what its responses took (reserved before the first byte, what a broken response did not
 * send given back), `cut_start`/`cut_end` the span the last broken response handed to the network
 * (the client may not have received its end), `credited` the bytes already re-sent to resumes
 * from inside such spans (bounded, sharing.ts). Tickets used under the old rule are deleted: they
 * would look fresh, and their only use was continuing a download for a few hours.
 */
export const m0081_ticket_metering: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`delete from share_link_tickets where used_at is not null`.execute(db);
    await db.schema.alterTable('share_link_tickets').addColumn('served', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('share_link_tickets').addColumn('credited', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('share_link_tickets').addColumn('cut_start', 'bigint').execute();
    await db.schema.alterTable('share_link_tickets').addColumn('cut_end', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['cut_end', 'cut_start', 'credited', 'served']) await db.schema.alterTable('share_link_tickets').dropColumn(column).execute();
  },
};
