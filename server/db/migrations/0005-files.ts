import { sql, type Kysely, type Migration } from 'kysely';

/**
 * File operations (issue 5): recycle bin (deleted_* columns; names are unique among live entries
 * only), group and public spaces, favorites, held createTxt texts, and the indexes that keep a
 * 100k-entry folder's first page cheap: root listings by (tenant, owner, category), folder
 * listings by (parent, is_dir, sort column, id), all partial on live rows.
 */
export const m0005_files: Migration = {
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
