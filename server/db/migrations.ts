import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { isUniqueViolation } from './database';

/**
 * Versioned migrations, provided in code so the server needs no migrations folder at run time.
 * Never edit a released migration: add a new one with the next number.
 */
const m0001_initial: Migration = {
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

/**
 * Transfer engine: blobs stored as their ordered chunk files (chunk_size/chunk_count; NULL = one
 * piece), merge intent on uploads (crash recovery), file versions, file locks, tenant upload settings,
 * second-upload challenges, and items held for a user decision.
 */
const m0002_transfer: Migration = {
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

/**
 * Pipelined uploads: the size-keyed second-upload probe looks up the tenant's blobs by size.
 * (Streaming sessions need no column: their fingerprint is '' and their digests null until merge.)
 */
const m0003_pipelined_uploads: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('blobs_tenant_size').on('blobs').columns(['tenant_id', 'size', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('blobs_tenant_size').ifExists().execute();
  },
};

/**
 * Accounts (issue 4): lock state, outer login and the user agreement on users; per-key login failure
 * counters (throttling and lock-out); hashed SMS codes; sessions remember the network they came from
 * and why the server ended them (an ended session answers 400sec-core-301 until it expires).
 */
const m0004_accounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    // 'admin' | 'failures': decides whether a wrong password may learn that the account is locked.
    await db.schema.alterTable('users').addColumn('locked_reason', 'text').execute();
    await db.schema.alterTable('users').addColumn('outer_login', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('users').addColumn('agreement_read_at', 'bigint').execute();
    // Accounts that existed before could log in from anywhere; keep that. New accounts start without.
    await sql`update users set outer_login = 1`.execute(db);
    await db.schema.createIndex('users_phone').on('users').column('phone').execute();

    await db.schema.alterTable('sessions').addColumn('network_env', 'text', (c) => c.notNull().defaultTo('internal')).execute();
    await db.schema.alterTable('sessions').addColumn('ended_reason', 'text').execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('login_failures')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('first_failure_at', 'bigint', (c) => c.notNull())
      .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
      .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('sms_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('phone', 'text', (c) => c.notNull())
      .addColumn('purpose', 'text', (c) => c.notNull())
      // The user a bindPhone code was requested by; null for login codes.
      .addColumn('user_id', 'text')
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sms_codes_phone').on('sms_codes').columns(['phone', 'created_at']).execute();
    await db.schema.createIndex('sms_codes_address').on('sms_codes').columns(['address', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sms_codes').ifExists().execute();
    await db.schema.dropTable('login_failures').ifExists().execute();
  },
};

/**
 * File operations (issue 5): recycle bin (deleted_* columns; names are unique among live entries
 * only), group and public spaces, favorites, held createTxt texts, and the indexes that keep a
 * 100k-entry folder's first page cheap: root listings by (tenant, owner, category), folder
 * listings by (parent, is_dir, sort column, id), all partial on live rows.
 */
const m0005_files: Migration = {
  async up(db: Kysely<unknown>) {
    for (const col of ['space_id', 'deleted_by', 'trash_root_id', 'trash_path']) {
      await db.schema.alterTable('files').addColumn(col, 'text').execute();
    }
    await db.schema.alterTable('files').addColumn('deleted_at', 'bigint').execute();
    await db.schema.alterTable('files').addColumn('encrypted', 'integer', (c) => c.notNull().defaultTo(0)).execute();

    // Uniqueness among live entries: a deleted 'a.txt' does not block a new one. Children of one
    // folder are unique by parent alone (a group folder holds entries of several owners).
    await sql`drop index files_unique_name`.execute(db);
    await sql`create unique index files_unique_root_name on files (tenant_id, owner_id, category, name_key)
      where parent_id is null and deleted_at is null`.execute(db);
    await sql`create unique index files_unique_child_name on files (parent_id, name_key)
      where parent_id is not null and deleted_at is null`.execute(db);
    for (const [name, col] of [['name', 'name_key'], ['size', 'size'], ['updated', 'updated_at']] as const) {
      await sql.raw(`drop index files_list_${name}`).execute(db);
      await sql.raw(`create index files_root_${name} on files (tenant_id, owner_id, category, is_dir, ${col}, id)
        where parent_id is null and deleted_at is null`).execute(db);
      await sql.raw(`create index files_child_${name} on files (parent_id, is_dir, ${col}, id)
        where deleted_at is null`).execute(db);
    }
    // Recycle bin of a user, and the automatic purge, read deleted roots only.
    await sql`create index files_trash on files (deleted_by, deleted_at) where trash_root_id = id`.execute(db);
    await sql`create index files_trash_age on files (deleted_at) where trash_root_id = id`.execute(db);
    // Trees of deleted roots (restore, purge).
    await sql`create index files_trash_tree on files (trash_root_id) where trash_root_id is not null`.execute(db);
    // Keyword search scans names in order within the tenant (infix match), stopping at a page.
    await sql`create index files_search on files (tenant_id, name_key, id) where deleted_at is null`.execute(db);

    await db.schema
      .createTable('spaces')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('group', 'public')`))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('root_id', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('spaces_tenant_name').on('spaces').columns(['tenant_id', 'kind', 'name_key']).unique().execute();

    await db.schema
      .createTable('space_members')
      .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'manager', 'member')`))
      .addColumn('joined_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('space_members_pk', ['space_id', 'user_id'])
      .execute();
    await db.schema.createIndex('space_members_user').on('space_members').column('user_id').execute();

    await db.schema
      .createTable('favorites')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'file_id'])
      .execute();
    await db.schema.createIndex('favorites_user_time').on('favorites').columns(['user_id', 'created_at', 'file_id']).execute();
    await db.schema.createIndex('favorites_file').on('favorites').column('file_id').execute();

    await db.schema
      .createTable('text_holds')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('parent_id', 'text')
      .addColumn('category', 'integer', (c) => c.notNull())
      .addColumn('space_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('text_holds_expires').on('text_holds').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['text_holds', 'favorites', 'space_members', 'spaces']) await db.schema.dropTable(t).ifExists().execute();
  },
};

/** Recycle-bin pages walk (deleted_by, deleted_at, id) with no sort step, like folder listings. */
const m0007_files_trash_order: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`drop index files_trash`.execute(db);
    await sql`create index files_trash on files (deleted_by, deleted_at, id) where trash_root_id = id`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index files_trash`.execute(db);
    await sql`create index files_trash on files (deleted_by, deleted_at) where trash_root_id = id`.execute(db);
  },
};

/**
 * One spelling for "stored as one piece": createTxt used to record chunk_size 0 where the schema says
 * NULL, so startup recovery took its blobs for chunked ones without a directory and reported them as
 * STORAGE DAMAGE on every start.
 */
const m0008_single_piece_blobs: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`update blobs set chunk_size = null, chunk_count = null where chunk_size = 0`.execute(db);
  },
  async down() {
    // Nothing to undo: NULL is what the earlier code reads as one piece too.
  },
};

/** Client operation ids of replayed offline changes, each applied once per user (http/client-ops.ts). */
const m0009_client_ops: Migration = {
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

/**
 * Names are stored in Unicode NFC and compared by their NFC lower case (common/validation/names.ts),
 * so `café.txt` typed as NFD and as NFC is one name. Rows written before keep their spelling but are
 * rewritten here; a row whose NFC form clashes with a sibling's keeps its old spelling (both stay
 * reachable; renaming either resolves it).
 */
const m0010_nfc_names: Migration = {
  async up(db: Kysely<unknown>) {
    let after = '';
    for (;;) {
      const rows = await sql<{ id: string; name: string }>`select id, name from files where id > ${after} order by id limit 1000`.execute(db);
      if (rows.rows.length === 0) break;
      for (const row of rows.rows) {
        const nfc = row.name.normalize('NFC');
        if (nfc === row.name) continue;
        try {
          await sql`update files set name = ${nfc}, name_key = ${nfc.toLowerCase()} where id = ${row.id}`.execute(db);
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
        }
      }
      after = rows.rows[rows.rows.length - 1]!.id;
    }
  },
  async down() {
    // NFC spellings stay: they are the same names.
  },
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return {
      '0001_initial': m0001_initial, '0002_transfer': m0002_transfer, '0003_pipelined_uploads': m0003_pipelined_uploads,
      '0004_accounts': m0004_accounts, '0005_files': m0005_files, '0007_files_trash_order': m0007_files_trash_order,
      '0008_single_piece_blobs': m0008_single_piece_blobs,
      '0009_client_ops': m0009_client_ops,
      '0010_nfc_names': m0010_nfc_names,
    };
  },
};
