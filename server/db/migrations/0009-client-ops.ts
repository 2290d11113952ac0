import { type Kysely, type Migration } from 'kysely';

/** Client operation ids of replayed offline changes, each applied once per user (http/client-ops.ts). */
export const m0009_client_ops: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('client_ops')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('op_id', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('body', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('client_ops_pk', ['user_id', 'op_id'])
      .execute();
    await db.schema.createIndex('client_ops_created').on('client_ops').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('client_ops').ifExists().execute();
  },
};
