/**
 * The load bench's users: member accounts of the admin's tenant written straight into the topology's
 * database (one scrypt hash shared by all, as setup; the password gate lifted), then each logged in
 * through the real captcha flow (its own session cookie) and given a few folders through the real
 * mkdir route, so its 个人文件 root has something to list.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { clientHeaders } from '../../../common/api/client-env';
import { API } from '../../../common/api/paths';
import type { ServerConfig } from '../../../server/config';
import { openDatabase } from '../../../server/db/database';
import type { Database } from '../../../server/db/schema';
import { hashPassword } from '../../../server/services/password-hash';
import { captchaOutboxOf, createCookieFetch, loginWithOutbox, type CookieFetch } from '../../replay/node-runtime';

export interface LoadUser {
  id: string;
  username: string;
  jar: CookieFetch;
}

const PASSWORD = 'Load@2026bench';

/** The topology's database through the server's own Kysely setup (SQLite file or PostgreSQL). */
export function openTopologyDb(dataDir: string, dbUrl?: string): Promise<Kysely<Database>> {
  return openDatabase({ dataDir, dbUrl, dbPoolSize: 4 } as ServerConfig);
}

/** Runs `fn` over `items` with at most `limit` at a time; answers in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Creates `count` members, logs each in and gives each `folders` folders in its root. */
export async function createLoadUsers(options: { url: string; dataDir: string; dbUrl?: string; count: number; folders: number }): Promise<LoadUser[]> {
  const db = await openTopologyDb(options.dataDir, options.dbUrl);
  const accounts: Array<{ id: string; username: string }> = [];
  try {
    const admin = await db.selectFrom('users').select('tenant_id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    const hash = await hashPassword(PASSWORD);
    const now = Date.now();
    for (let i = 0; i < options.count; i++) accounts.push({ id: randomBytes(16).toString('base64url'), username: `load${String(i).padStart(4, '0')}` });
    for (let i = 0; i < accounts.length; i += 100) {
      await db
        .insertInto('users')
        .values(
          accounts.slice(i, i + 100).map((a) => ({
            id: a.id,
            tenant_id: admin.tenant_id,
            username: a.username,
            username_key: a.username,
            nick_name: a.username,
            phone: '',
            avatar: '',
            role: 'member' as const,
            password_hash: hash,
            must_change_password: 0,
            password_changed_at: now,
            quota: 10 * 1024 ** 3,
            used_size: 0,
            created_at: now,
          })),
        )
        .execute();
    }
  } finally {
    await db.destroy();
  }
  const outbox = captchaOutboxOf(options.dataDir);
  const headers = { ...clientHeaders('desktop', 'internal'), 'content-type': 'application/json' };
  return mapLimit(accounts, 4, async (account) => {
    const jar = createCookieFetch();
    await loginWithOutbox(jar, { serverUrl: options.url, username: account.username, password: PASSWORD, captchaOutbox: outbox });
    for (let f = 0; f < options.folders; f++) {
      const res = await jar.fetch(options.url + API.mkdir, {
        method: 'POST',
        headers,
        body: JSON.stringify({ parentId: null, category: 1, name: `文件夹 ${f + 1}` }),
        signal: AbortSignal.timeout(30_000),
      });
      if (!res.ok) throw new Error(`mkdir for ${account.username}: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    return { ...account, jar };
  });
}
