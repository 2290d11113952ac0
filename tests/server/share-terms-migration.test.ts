import os from 'node:os';
import path from 'node:path';
import { promises as fsp } from 'node:fs';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTenantAndMember, migrate } from './migration-kit';

/**
 * Migration 0082 records the approved terms of shares and links approved before it (issue 35,
 * common/api/share-terms.ts) from their applications: the end date counted from the moment approval
 * made the row, not from the row's first creation; rows made without approval get none.
 */
const DAY = 24 * 3600 * 1000;
let dir: string;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'terms-migration-'));
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('migration 0082 on existing shares and links', () => {
  it('gives approved rows the terms their application granted, and the others none', async () => {
    const file = path.join(dir, 'drive.sqlite');
    await migrate(file, '0070_notices');
    const raw = new SQLite(file);
    insertTenantAndMember(raw);
    const app = raw.prepare(
      `insert into share_applications (id, tenant_id, applicant_id, kind, file_ids, settings, reason, state, level, levels, approver_id, created_at, updated_at, expires_at)
       values (?, 't', 'u', ?, '["f"]', ?, 'r', 'approved', ?, ?, 'm', 1, 1, 1)`,
    );
    app.run('a-share', 'share', JSON.stringify({ share: { recipients: [{ type: 'user', id: 'o' }], permission: 'preview', validityDays: 7 } }), 1, 1);
    app.run('a-link', 'link', JSON.stringify({ link: { code: 'ab12', validityDays: 1, downloadLimit: 1, previewOnly: true } }), 2, 2);
    const approvedAt = 1_000_000;
    const step = raw.prepare(`insert into share_application_steps (id, application_id, tenant_id, kind, level, actor_id, at, comment) values (?, ?, 't', 'created', 1, null, ?, '')`);
    step.run('s1', 'a-share', approvedAt);
    step.run('s2', 'a-link', approvedAt + 5);
    // The share was there before the approval (sharing again updated it), and an update widened it since.
    const share = raw.prepare(
      `insert into shares (id, tenant_id, file_id, owner_id, recipient_type, recipient_id, permission, expires_at, created_at, updated_at, revoked_at, application_id)
       values (?, 't', 'f', 'u', 'user', ?, 'edit', null, 5, 5, null, ?)`,
    );
    share.run('sh-approved', 'o', 'a-share');
    share.run('sh-free', 'p', null);
    const link = raw.prepare(
      `insert into share_links (id, tenant_id, file_id, owner_id, token_hash, token_sealed, code_sealed, expires_at, download_limit, download_count, view_count, preview_only, created_at, updated_at, revoked_at, application_id)
       values (?, 't', 'f', 'u', ?, 'x', null, null, null, 0, 0, 0, ?, ?, null, ?)`,
    );
    link.run('ln-approved', 'h1', approvedAt + 5, approvedAt + 5, 'a-link');
    link.run('ln-free', 'h2', 9, 9, null);
    raw.close();

    await migrate(file);
    const db = new SQLite(file, { readonly: true });
    try {
      const terms = (table: string, id: string) => {
        const row = db.prepare(`select approved_terms from ${table} where id = ?`).get(id) as { approved_terms: string | null };
        return row.approved_terms === null ? null : (JSON.parse(row.approved_terms) as Record<string, unknown>);
      };
      expect(terms('shares', 'sh-approved')).toEqual({ permission: 'preview', expiresAt: approvedAt + 7 * DAY, reasons: [], levels: 1 });
      expect(terms('shares', 'sh-free')).toBeNull();
      expect(terms('share_links', 'ln-approved')).toEqual({ code: true, expiresAt: approvedAt + 5 + DAY, downloadLimit: 1, previewOnly: true, reasons: [], levels: 2 });
      expect(terms('share_links', 'ln-free')).toBeNull();
      // The widened share keeps its current terms: from now on it may only narrow.
      expect(db.prepare("select permission, expires_at from shares where id = 'sh-approved'").get()).toEqual({ permission: 'edit', expires_at: null });
    } finally {
      db.close();
    }
  });
});
