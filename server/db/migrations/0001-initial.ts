import { sql, type Kysely, type Migration } from 'kysely';

export const m0001_initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tenants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('brand_name', 'text', (c) => c.notNull())
      .addColumn('logo_key', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('nick_name', 'text', (c) => c.notNull())
      .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'member')`))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('password_changed_at', 'bigint')
      .addColumn('quota', 'bigint', (c) => c.notNull())
      .addColumn('used_size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // Login looks users up by name alone, so usernames are unique across tenants.
    await db.schema.createIndex('users_username_unique').on('users').column('username').unique().execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

    await db.schema
      .createTable('captchas')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('answer_hash', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('captchas_expires').on('captchas').column('expires_at').execute();

    await db.schema
      .createTable('blobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // Deduplication is scoped to the tenant (field notes: never across tenants).
    await db.schema
      .createIndex('blobs_tenant_fingerprint')
      .on('blobs')
      .columns(['tenant_id', 'fingerprint'])
      .unique()
      .execute();

    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('parent_id', 'text', (c) => c.references('files.id'))
      .addColumn('category', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('is_dir', 'integer', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('blob_id', 'text', (c) => c.references('blobs.id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // No two entries with the same (case-folded) name in one folder. coalesce() makes root entries
    // (parent_id NULL) collide too; NULLs would otherwise never be equal in a unique index.
    await sql`create unique index files_unique_name on files
      (tenant_id, owner_id, category, coalesce(parent_id, ''), name_key)`.execute(db);
    // Listing by folder: folders first, then the sort key; one index per sortable column.
    await sql`create index files_list_name on files
      (tenant_id, owner_id, category, parent_id, is_dir, name_key, id)`.execute(db);
    await sql`create index files_list_size on files
      (tenant_id, owner_id, category, parent_id, is_dir, size, id)`.execute(db);
    await sql`create index files_list_updated on files
      (tenant_id, owner_id, category, parent_id, is_dir, updated_at, id)`.execute(db);

    await db.schema
      .createTable('uploads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('chunk_size', 'integer', (c) => c.notNull())
      .addColumn('chunk_count', 'integer', (c) => c.notNull())
      .addColumn('chunk_digests', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'text')
      .addColumn('category', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('uploads_user_fingerprint')
      .on('uploads')
      .columns(['user_id', 'fingerprint', 'size'])
      .execute();
    await db.schema.createIndex('uploads_expires').on('uploads').column('expires_at').execute();

    await db.schema
      .createTable('upload_chunks')
      .addColumn('upload_id', 'text', (c) => c.notNull().references('uploads.id').onDelete('cascade'))
      .addColumn('idx', 'integer', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('upload_chunks_pk', ['upload_id', 'idx'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['upload_chunks', 'uploads', 'files', 'blobs', 'captchas', 'sessions', 'users', 'tenants']) {
      await db.schema.dropTable(t).ifExists().execute();
    }
  },
};
