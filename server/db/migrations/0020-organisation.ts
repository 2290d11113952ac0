import { sql, type Kysely, type Migration } from 'kysely';
import { randomBytes } from 'node:crypto';

/**
 * Organisation (issue 14): a department tree per tenant (adjacency list; subtrees are walked with
 * recursive CTEs, which SQLite and PostgreSQL both run), each account in one department (a top-level
 * 未分配 per tenant holds everyone not placed elsewhere: existing accounts land there), accounts unique
 * per tenant case-insensitively (username_key) instead of across tenants, phones unique across
 * tenants (SMS login finds an account by phone alone), accounts deleted softly (deleted_at: what they
 * did stays attributed), the tenant's address-list phone rule, and batch-import previews.
 */
export const m0020_organisation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('departments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('parent_id', 'text', (c) => c.references('departments.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('manager_id', 'text', (c) => c.references('users.id'))
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('normal').check(sql`kind in ('normal', 'unassigned')`))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // Sibling names are unique (case-insensitively); coalesce makes top-level names collide too.
    await sql`create unique index departments_sibling_name on departments (tenant_id, coalesce(parent_id, ''), name_key)`.execute(db);
    await sql`create index departments_children on departments (parent_id, sort_order, id)`.execute(db);
    await sql`create index departments_tenant on departments (tenant_id, sort_order, id)`.execute(db);
    await sql`create unique index departments_one_unassigned on departments (tenant_id) where kind = 'unassigned'`.execute(db);
    await sql`create index departments_manager on departments (manager_id) where manager_id is not null`.execute(db);

    // SQLite adds a REFERENCES column only when it may be NULL; the services always set it.
    await db.schema.alterTable('users').addColumn('department_id', 'text', (c) => c.references('departments.id')).execute();
    await db.schema.alterTable('users').addColumn('username_key', 'text').execute();
    await db.schema.alterTable('users').addColumn('deleted_at', 'bigint').execute();

    const now = Date.now();
    const tenants = await sql<{ id: string }>`select id from tenants`.execute(db);
    for (const tenant of tenants.rows) {
      const id = randomBytes(16).toString('base64url');
      await sql`insert into departments (id, tenant_id, parent_id, name, name_key, sort_order, manager_id, kind, created_at, updated_at)
        values (${id}, ${tenant.id}, null, '未分配', '未分配', 1000000, null, 'unassigned', ${now}, ${now})`.execute(db);
      await sql`update users set department_id = ${id} where tenant_id = ${tenant.id}`.execute(db);
    }

    // Account keys. Names were unique exactly; two that differ only in case within one tenant keep
    // their exact spelling as key for the later one ('\u0001' prefix: never typed), which login
    // still finds by the exact name (UserRepository.findLoginCandidates).
    const users = await sql<{ id: string; tenant_id: string; username: string }>`select id, tenant_id, username from users order by created_at, id`.execute(db);
    const taken = new Set<string>();
    for (const u of users.rows) {
      const lower = u.username.trim().toLowerCase();
      const key = taken.has(`${u.tenant_id}\n${lower}`) ? `\u0001${u.username}` : lower;
      taken.add(`${u.tenant_id}\n${key}`);
      await sql`update users set username_key = ${key} where id = ${u.id}`.execute(db);
    }
    await sql`drop index users_username_unique`.execute(db);
    await sql`create unique index users_tenant_account on users (tenant_id, username_key) where deleted_at is null`.execute(db);
    await sql`create index users_account_key on users (username_key) where deleted_at is null`.execute(db);
    await sql`create index users_login_name on users (username) where deleted_at is null`.execute(db);
    await sql`create index users_department on users (department_id, username_key) where deleted_at is null`.execute(db);

    // One phone, one account: the earliest keeps a phone several accounts shared.
    const dupes = await sql<{ id: string }>`select u.id from users u where u.phone <> '' and exists
      (select 1 from users o where o.phone = u.phone and (o.created_at < u.created_at or (o.created_at = u.created_at and o.id < u.id)))`.execute(db);
    for (const d of dupes.rows) await sql`update users set phone = '' where id = ${d.id}`.execute(db);
    await sql`drop index users_phone`.execute(db);
    await sql`create unique index users_phone_unique on users (phone) where phone <> '' and deleted_at is null`.execute(db);

    await db.schema.alterTable('tenant_settings').addColumn('phone_mask', 'text').execute();

    await db.schema
      .createTable('user_import_batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      /** JSON ImportRow[] as previewed, then as imported. */
      .addColumn('rows', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('preview', 'imported')`))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('user_import_batches_expires').on('user_import_batches').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('user_import_batches').ifExists().execute();
  },
};
