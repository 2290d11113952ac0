import { type Kysely, type Migration } from 'kysely';

/**
 * Transfer engine: blobs stored as their ordered chunk files (chunk_size/chunk_count; NULL = one
 * piece), merge intent on uploads (crash recovery), file versions, file locks, tenant upload settings,
 * second-upload challenges, and items held for a user decision.
 */
export const m0002_transfer: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('blobs').addColumn('chunk_size', 'integer').execute();
    await db.schema.alterTable('blobs').addColumn('chunk_count', 'integer').execute();
    await db.schema.alterTable('uploads').addColumn('merge_blob_id', 'text').execute();
    await db.schema.alterTable('files').addColumn('locked_by', 'text').execute();
    await db.schema.createIndex('files_blob').on('files').column('blob_id').execute();

    await db.schema
      .createTable('file_versions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('file_id', 'text', (c) => c.notNull().references('files.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('blob_id', 'text', (c) => c.notNull().references('blobs.id'))
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('version_no', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .execute();
    await db.schema.createIndex('file_versions_file').on('file_versions').columns(['file_id', 'version_no']).unique().execute();
    await db.schema.createIndex('file_versions_blob').on('file_versions').column('blob_id').execute();

    await db.schema
      .createTable('tenant_settings')
      .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id'))
      .addColumn('blocked_extensions', 'text')
      .addColumn('sensitive_keywords', 'text')
      .execute();

    await db.schema
      .createTable('second_upload_challenges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('ranges', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('second_upload_challenges_expires').on('second_upload_challenges').column('expires_at').execute();

    await db.schema
      .createTable('unprocessed_uploads')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('upload_key', 'text', (c) => c.notNull())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'text')
      .addColumn('category', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('decided_at', 'bigint')
      .addColumn('decision', 'text')
      .addPrimaryKeyConstraint('unprocessed_uploads_pk', ['user_id', 'upload_key'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['unprocessed_uploads', 'second_upload_challenges', 'tenant_settings', 'file_versions']) {
      await db.schema.dropTable(t).ifExists().execute();
    }
  },
};
