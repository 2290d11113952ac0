import { type Kysely, type Migration } from 'kysely';

/**
 * WebDAV (issue 39): locks and dead properties.
 *
 * dav_locks: a WebDAV lock on one entry, with what the product's own lock (files.locked_by) cannot say —
 * the token, scope, depth, timeout and the client's owner XML. A lock on an entry also sets
 * files.locked_by (the web app shows it as locked by that person); the row is valid only while
 * locked_by still names its user, so the web app's 解锁 (or an administrator's) ends it.
 * `took_product_lock` = 1 when this lock set locked_by (its UNLOCK or expiry clears it again).
 *
 * dav_properties: PROPPATCH's dead properties, per entry, keyed by namespace and local name, the value
 * kept as the XML inside the property element. Both cascade with the entry's row (recycle-bin purge).
 */
export const m0096_dav_locks_properties: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dav_locks')
      .addColumn('token', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('entry_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('deep', 'integer', (c) => c.notNull())
      .addColumn('owner_xml', 'text')
      .addColumn('timeout_s', 'bigint')
      .addColumn('expires_at', 'bigint')
      .addColumn('took_product_lock', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('dav_locks_entry').on('dav_locks').column('entry_id').execute();
    await db.schema.createIndex('dav_locks_expiry').on('dav_locks').column('expires_at').execute();
    await db.schema
      .createTable('dav_properties')
      .addColumn('entry_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('ns', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value_xml', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('dav_properties_pk', ['entry_id', 'ns', 'name'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dav_properties').execute();
    await db.schema.dropTable('dav_locks').execute();
  },
};
