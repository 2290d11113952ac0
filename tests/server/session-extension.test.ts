import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database';
import type { ServerConfig } from '../../server/config';
import { SessionRepository } from '../../server/repositories/session-repository';
import { testDbUrl } from '../support/test-database';
import { startServer, userIdOf, type TestServer } from './helpers';

/**
 * Session extension on the real database (SQLite, or PostgreSQL in its stage). Every active session is extended once a minute, so a
 * crowd that signed in together comes due together; one committed transaction per session stalled the
 * single-process server for seconds in the load bench (docs/benchmarks.md, "## load"). The extensions
 * due together must cost one write transaction, and expire exactly as before.
 */
const N = 200;
const TTL = 30 * 60_000;
let server: TestServer;
let db: Db;
let userId: string;
let tenantId: string;

beforeAll(async () => {
  server = await startServer();
  db = await openDatabase({ dataDir: server.dataDir, dbUrl: await testDbUrl(server.dataDir) } as ServerConfig);
  userId = await userIdOf(server, 'admin');
  tenantId = (await db.selectFrom('users').select('tenant_id').where('id', '=', userId).executeTakeFirstOrThrow()).tenant_id;
});
afterAll(async () => {
  await db.destroy();
  await server.close();
});

async function insertSessions(prefix: string, lastSeenAt: number): Promise<string[]> {
  const ids = Array.from({ length: N }, (_, i) => `${prefix}-${i}`);
  await db
    .insertInto('sessions')
    .values(ids.map((id) => ({ id, user_id: userId, tenant_id: tenantId, created_at: lastSeenAt, expires_at: lastSeenAt + TTL, last_seen_at: lastSeenAt, public_id: id })))
    .execute();
  return ids;
}

/** The database seen through a counter of write transactions: each top-level write statement commits on its own. */
function countingWrites(target: Db): { db: Db; writes: () => number } {
  let writes = 0;
  const db = new Proxy(target, {
    get(t, key, receiver) {
      const value: unknown = Reflect.get(t, key, receiver);
      if (typeof value !== 'function') return value;
      if (key === 'transaction' || key === 'updateTable' || key === 'insertInto' || key === 'deleteFrom') {
        return (...args: unknown[]) => {
          writes++;
          return (value as (...a: unknown[]) => unknown).apply(t, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(t);
    },
  });
  return { db, writes: () => writes };
}

describe('session extension', () => {
  it(`extends ${N} sessions due at once in one write transaction`, async () => {
    const now = Date.now();
    const ids = await insertSessions('due', now - 61_000);
    const counted = countingWrites(db);
    const sessions = new SessionRepository(counted.db);
    await Promise.all(ids.map((id, i) => sessions.extend(id, now + i, now + i + TTL, i % 2 ? `10.0.0.${i % 250}` : undefined)));
    expect(counted.writes()).toBe(1);
    const rows = await db.selectFrom('sessions').select(['id', 'last_seen_at', 'expires_at', 'address']).where('id', 'like', 'due-%').execute();
    expect(rows).toHaveLength(N);
    for (const row of rows) {
      const i = Number(row.id.slice('due-'.length));
      expect({ seen: Number(row.last_seen_at), expires: Number(row.expires_at), address: row.address ?? null }).toEqual({
        seen: now + i,
        expires: now + i + TTL,
        address: i % 2 ? `10.0.0.${i % 250}` : null,
      });
    }
  });

  it('expires exactly at the extended expiry, and a later extension of the same session wins', async () => {
    const now = Date.now();
    const [id] = await insertSessions('late', now - 61_000);
    const sessions = new SessionRepository(db);
    await Promise.all([sessions.extend(id!, now, now + TTL, '10.1.1.1'), sessions.extend(id!, now + 5, now + 5 + TTL)]);
    expect(await sessions.findValid(id!, now + 4 + TTL)).toMatchObject({ id, last_seen_at: now + 5, expires_at: now + 5 + TTL });
    expect(await sessions.findValid(id!, now + 5 + TTL)).toBeUndefined();
    const row = await db.selectFrom('sessions').select('address').where('id', '=', id!).executeTakeFirstOrThrow();
    expect(row.address).toBe('10.1.1.1');
  });
});
