import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Sharing (issue 15): internal shares, share links (with their download tickets and wrong-code
 * counters), sharing applications and their history, per-tenant security settings (the sharing
 * policy and the exchange rules), and the exchange area's crossing state per file.
 *
 * The indexes serve the pages without a sort step:
 * - 共享文件 walks shares_inbox (recipient, newest first) once per recipient key of the caller (the
 *   person, each department above them, each group), or shares_inbox_sharer for one sharer;
 * - an access check finds the shares of an entry and its ancestors with shares_file;
 * - 我的分享 walks shares_owner / share_links_owner; 我的申请 applications_applicant; 审批 (pending)
 *   applications_approver; 审批 (decided by me) application_steps_actor.
 * All partial indexes that matter are on rows in force (revoked_at is null).
 */
export const m0050_sharing: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('shares')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('recipient_type', 'text', (c) => c.notNull().check(sql`recipient_type in ('user', 'dept', 'group')`))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('permission', 'text', (c) => c.notNull().check(sql`permission in ('preview', 'download', 'edit')`))
      .addColumn('expires_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('application_id', 'text')
      .execute();
    // One share in force per entry and recipient: sharing again updates it.
    await sql`create unique index shares_one_per_recipient on shares (file_id, recipient_type, recipient_id) where revoked_at is null`.execute(db);
    await sql`create index shares_inbox on shares (tenant_id, recipient_type, recipient_id, created_at, id) where revoked_at is null`.execute(db);
    await sql`create index shares_inbox_sharer on shares (tenant_id, recipient_type, recipient_id, owner_id, created_at, id) where revoked_at is null`.execute(
      db,
    );
    await sql`create index shares_file on shares (file_id) where revoked_at is null`.execute(db);
    await sql`create index shares_owner on shares (tenant_id, owner_id, created_at, id)`.execute(db);

    await db.schema
      .createTable('share_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
      // SHA-256 of the token (what a visitor's token is looked up by); the token and the code are
      // kept sealed (AES-256-GCM, services/sharing/link-secrets.ts) so the sharer can copy them again.
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('token_sealed', 'text', (c) => c.notNull())
      .addColumn('code_sealed', 'text')
      .addColumn('expires_at', 'bigint')
      .addColumn('download_limit', 'integer')
      .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('preview_only', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('application_id', 'text')
      .execute();
    await sql`create index share_links_owner on share_links (tenant_id, owner_id, created_at, id)`.execute(db);
    await sql`create index share_links_file on share_links (file_id) where revoked_at is null`.execute(db);

    // A counted download's address: used once for a whole download, continued with Range until it expires.
    await db.schema
      .createTable('share_link_tickets')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('link_id', 'text', (c) => c.notNull())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('file_ids', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('share_link_tickets_expires').on('share_link_tickets').column('expires_at').execute();

    // Wrong extraction codes, per token (hashed, known or not) and per address.
    await db.schema
      .createTable('link_failures')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('first_failure_at', 'bigint', (c) => c.notNull())
      .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
      .addColumn('locked_until', 'bigint')
      .execute();
    await db.schema.createIndex('link_failures_last').on('link_failures').column('last_failure_at').execute();

    await db.schema
      .createTable('share_applications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('applicant_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('share', 'link')`))
      .addColumn('file_ids', 'text', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'approved', 'rejected', 'withdrawn', 'expired')`))
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('levels', 'integer', (c) => c.notNull())
      .addColumn('approver_id', 'text')
      .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('share_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('link_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await sql`create index applications_applicant on share_applications (tenant_id, applicant_id, created_at, id)`.execute(db);
    await sql`create index applications_approver on share_applications (tenant_id, approver_id, created_at, id) where state = 'pending'`.execute(db);
    await sql`create index applications_expiry on share_applications (expires_at) where state = 'pending'`.execute(db);

    await db.schema
      .createTable('share_application_steps')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('application_id', 'text', (c) => c.notNull().references('share_applications.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('application_steps_application').on('share_application_steps').columns(['application_id', 'at']).execute();
    await sql`create index application_steps_actor on share_application_steps (tenant_id, actor_id, at, id) where kind in ('approve', 'reject')`.execute(db);

    await db.schema
      .createTable('security_settings')
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('security_settings_pk', ['tenant_id', 'key'])
      .execute();

    // An exchange-area file: which network build put it there, and whether it may cross (checkSwap).
    await db.schema
      .createTable('exchange_files')
      .addColumn('file_id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('internal', 'public')`))
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'passed', 'intercepted')`))
      // The content the state is about: a new version is a new crossing.
      .addColumn('blob_id', 'text')
      .addColumn('reason', 'text')
      .addColumn('checked_at', 'bigint')
      .addColumn('processed_at', 'bigint')
      .addColumn('processing', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await sql`create index exchange_intercepted on exchange_files (tenant_id, owner_id, checked_at, file_id) where state = 'intercepted' and processed_at is null`.execute(db);
    await sql`create index exchange_processed on exchange_files (tenant_id, owner_id, processed_at, file_id) where processed_at is not null`.execute(db);
    // Exchange-area files from before: put in from the internal build (the one that existed), not checked yet.
    await sql`insert into exchange_files (file_id, tenant_id, owner_id, side, state, blob_id, reason, checked_at, processed_at, processing, created_at)
      select id, tenant_id, owner_id, 'internal', 'pending', blob_id, null, null, null, null, created_at from files
      where category = 3 and is_dir = 0 and space_id is null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['exchange_files', 'security_settings', 'share_application_steps', 'share_applications', 'link_failures', 'share_link_tickets', 'share_links', 'shares']) {
      await db.schema.dropTable(t).ifExists().execute();
    }
  },
};
