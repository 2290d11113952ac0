import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv, trustedProxiesFromEnv } from '../../server/config';
import { Client, login, ADMIN, startServer, withDb, type TestServer } from './helpers';

/**
 * X-Forwarded-* are believed only from the proxies TRUST_PROXY lists (the cluster's balancer): from
 * anyone else a client could pick the address the login throttle counts and the action log records,
 * and claim https. Tests connect from 127.0.0.1, so `loopback` plays the balancer and 192.0.2.1
 * (TEST-NET-1) a proxy that is not this caller.
 */
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const FORWARDED = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'drive.example.com' };

/** Logs the admin in with FORWARDED headers; the session cookie's attributes and the address its session recorded. */
async function signIn(server: TestServer): Promise<{ setCookie: string; address: string | null }> {
  const client = new Client(server.baseUrl);
  const res = await login(server, client, ADMIN, FORWARDED);
  expect(res.status).toBe(200);
  const setCookie = res.headers.getSetCookie().join('\n');
  const rows = await withDb(server, (db) => db.prepare('select address from sessions order by created_at desc').all() as { address: string | null }[]);
  return { setCookie, address: rows[0]?.address ?? null };
}

describe('forwarded headers', () => {
  it('are ignored from a caller that is not a listed proxy', async () => {
    const server = await startServer({ trustProxy: ['192.0.2.1'] });
    servers.push(server);
    const { setCookie, address } = await signIn(server);
    expect(address).toMatch(/127\.0\.0\.1$/);
    expect(setCookie).not.toMatch(/;\s*Secure/i);
  });

  it('are believed from a listed proxy: the client address is counted, the cookie is Secure', async () => {
    const server = await startServer({ trustProxy: ['loopback'] });
    servers.push(server);
    const { setCookie, address } = await signIn(server);
    expect(address).toBe('203.0.113.7');
    expect(setCookie).toMatch(/;\s*Secure/i);
  });

  it('a client cannot add addresses in front of the one the proxy appended', async () => {
    const server = await startServer({ trustProxy: ['loopback'] });
    servers.push(server);
    const client = new Client(server.baseUrl);
    // What haproxy sends when the client already wrote an X-Forwarded-For: the client's claim, then the real address.
    const res = await login(server, client, ADMIN, { ...FORWARDED, 'x-forwarded-for': '10.66.66.66, 203.0.113.9' });
    expect(res.status).toBe(200);
    const rows = await withDb(server, (db) => db.prepare('select address from sessions order by created_at desc').all() as { address: string }[]);
    expect(rows[0]!.address).toBe('203.0.113.9');
  });

  it('TRUST_PROXY takes addresses, ranges and keywords, and refuses "1" (which believed everyone)', () => {
    expect(trustedProxiesFromEnv('127.0.0.1, 10.0.0.0/8,::1,loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'loopback']);
    expect(trustedProxiesFromEnv(undefined)).toEqual([]);
    expect(() => trustedProxiesFromEnv('1')).toThrow(/any client/);
    expect(() => trustedProxiesFromEnv('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
    expect(() => configFromEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(configFromEnv({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
  });
});
