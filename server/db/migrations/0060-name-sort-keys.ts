import { sql, type Kysely, type Migration } from 'kysely';
import { fillNameSortKeys } from '../name-sort-keys';

/**
 * Names sort as people read them (issue 20): Chinese by pinyin, numbers by value (文件2 before
 * 文件10), case-insensitively first. `files.sort_key` holds a byte-comparable key of the name
 * (common/files/name-sort-key.ts), computed on every write and filled here for existing rows; the
 * name listings walk indexes on it (files_root_sort / files_child_sort, replacing the name_key ones),
 * so a keyset page is still one index walk without a sort step and pages follow the shown order.
 * Keyword search walks the same order (files_search now ends in sort_key, id, name_key).
 */
export const m0060_name_sort_keys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('files').addColumn('sort_key', 'text', (c) => c.notNull().defaultTo('')).execute();
    await db.schema
      .createTable('name_sort_key_state')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('version', 'text', (c) => c.notNull())
      .execute();
    await sql`insert into name_sort_key_state (id, version) values (1, '')`.execute(db);
    await fillNameSortKeys(db);
    await sql`create index files_root_sort on files (tenant_id, owner_id, category, is_dir, sort_key, id)
      where parent_id is null and deleted_at is null`.execute(db);
    await sql`create index files_child_sort on files (parent_id, is_dir, sort_key, id) where deleted_at is null`.execute(db);
    await sql`drop index if exists files_root_name`.execute(db);
    await sql`drop index if exists files_child_name`.execute(db);
    // Search results come in the same order: walked by sort key, the keyword matched on the name key the index carries.
    await sql`drop index if exists files_search`.execute(db);
    await sql`create index files_search on files (tenant_id, sort_key, id, name_key) where deleted_at is null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists files_search`.execute(db);
    await sql`create index files_search on files (tenant_id, name_key, id) where deleted_at is null`.execute(db);
    await sql`drop index if exists files_root_sort`.execute(db);
    await sql`drop index if exists files_child_sort`.execute(db);
    await sql`create index files_root_name on files (tenant_id, owner_id, category, is_dir, name_key, id) where parent_id is null and deleted_at is null`.execute(db);
    await sql`create index files_child_name on files (parent_id, is_dir, name_key, id) where deleted_at is null`.execute(db);
    await db.schema.dropTable('name_sort_key_state').ifExists().execute();
    await db.schema.alterTable('files').dropColumn('sort_key').execute();
  },
};
