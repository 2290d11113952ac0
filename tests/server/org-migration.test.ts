import os from 'node:os';
import path from 'node:path';
import { promises as fsp } from 'node:fs';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from './migration-kit';

/**
 * Migration 0020 on a database written before it: every account lands in its tenant's 未分配, account
 * keys are made (two names differing only in case in one tenant both stay reachable), a phone several
 * accounts shared stays with the earliest.
 */
let dir: string;
let file: string;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'org-migration-'));
  file = path.join(dir, 'drive.sqlite');
  await migrate(file, '0010_nfc_names');
  const db = new SQLite(file);
  const insertTenant = db.prepare('insert into tenants (id, name, brand_name, logo_key, created_at) values (?, ?, ?, null, 1)');
  insertTenant.run('t1', 'One', 'One');
  insertTenant.run('t2', 'Two', 'Two');
  const insertUser = db.prepare(
    `insert into users (id, tenant_id, username, nick_name, phone, avatar, role, password_hash, must_change_password, quota, used_size, created_at)
     values (?, ?, ?, ?, ?, '', 'member', 'x', 0, 1, 0, ?)`,
  );
  insertUser.run('u1', 't1', 'Bob', 'Bob', '13800000001', 1);
  insertUser.run('u2', 't1', 'bob', 'bob', '13800000001', 2);
  insertUser.run('u3', 't2', 'Carol', 'Carol', '', 3);
  db.close();
  await migrate(file);
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('migration 0020 on existing data', () => {
  it('puts everyone in their tenant 未分配, keys accounts and keeps a shared phone on the earliest', () => {
    const db = new SQLite(file, { readonly: true });
    try {
      const depts = db.prepare("select tenant_id, name, kind, parent_id from departments order by tenant_id").all();
      expect(depts).toEqual([
        { tenant_id: 't1', name: '未分配', kind: 'unassigned', parent_id: null },
        { tenant_id: 't2', name: '未分配', kind: 'unassigned', parent_id: null },
      ]);
      const users = db
        .prepare('select u.id, u.username_key, u.phone, d.tenant_id = u.tenant_id as same_tenant from users u join departments d on d.id = u.department_id order by u.id')
        .all();
      expect(users).toEqual([
        { id: 'u1', username_key: 'bob', phone: '13800000001', same_tenant: 1 },
        { id: 'u2', username_key: '\u0001bob', phone: '', same_tenant: 1 },
        { id: 'u3', username_key: 'carol', phone: '', same_tenant: 1 },
      ]);
      // Both Bobs are still found by their exact names (the login looks up key or exact name).
      const byName = db.prepare("select id from users where username_key = lower(?) or username = ? order by id");
      expect(byName.all('bob', 'bob')).toEqual([{ id: 'u1' }, { id: 'u2' }]);
    } finally {
      db.close();
    }
  });
});
