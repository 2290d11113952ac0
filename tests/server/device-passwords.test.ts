import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { DevicePasswordCreated, DevicePasswordList } from '../../common/api/device-passwords';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { DAV_REALM, DAV_REFUSALS, type DavRefusal } from '../../server/dav/dav-auth';
import { testDbUrl } from '../support/test-database';
import { addUser, Client, liftPasswordGate, loggedInClient, MEMBER, startServer, withDb, type TestServer } from './helpers';

/**
 * 设备密码 (issue 39): the endpoints, and the sign-in every WebDAV request makes (server/dav/dav-auth.ts),
 * through a probe route that does what the /dav/ plugin does with the answer.
 */
const PROBE = '/dav-auth-probe';

function installProbe(app: FastifyInstance): void {
  app.get(PROBE, async (request, reply) => {
    const result = await app.davAuthenticator.authenticate(request);
    if (!result.ok) return reply.code(result.status).headers(result.headers).type('text/plain; charset=utf-8').send(result.body);
    return { caller: result.caller };
  });
}

function basic(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` };
}

let server: TestServer;
let admin: Client;
let member: Client;
let memberId: string;
let tenantId: string;

async function probe(headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.baseUrl + PROBE, { headers });
}

async function expectRefusal(res: Response, kind: DavRefusal): Promise<void> {
  const { status, reason } = DAV_REFUSALS[kind];
  expect(res.status).toBe(status);
  expect(await res.text()).toBe(`${reason}\n`);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  if (status === 401) expect(res.headers.get('www-authenticate')).toBe(`Basic realm="${DAV_REALM}", charset="UTF-8"`);
  else expect(res.headers.get('www-authenticate')).toBeNull();
}

async function create(client: Client, name: string): Promise<DevicePasswordCreated> {
  const res = await client.post<{ data: DevicePasswordCreated }>(API.devicePasswordCreate, { name });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The admin switches are form-encoded (spec §7). */
async function setWebdav(on: boolean): Promise<number> {
  const res = await admin.raw(API.switchWebdav, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value: on ? '1' : '0' }) });
  return res.status;
}

async function clearFailures(): Promise<void> {
  await withDb(server, (db) => db.prepare('delete from login_failures').run());
}

beforeAll(async () => {
  // The trusted proxy lets a test speak as a remote client (X-Forwarded-For) over plain HTTP or "TLS".
  server = await startServer({ trustProxy: ['127.0.0.1'], accounts: { loginSlowAfter: 3, loginDelayBaseMs: 60_000, loginAddressSlowAfter: 1000 } }, installProbe);
  admin = await loggedInClient(server);
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  ({ memberId, tenantId } = await withDb(server, (db) => {
    const row = db.prepare("select id, tenant_id from users where username = 'member'").get() as { id: string; tenant_id: string };
    return { memberId: row.id, tenantId: row.tenant_id };
  }));
});

afterAll(async () => {
  await server?.close();
});

describe('device password endpoints', () => {
  it('creates one shown once, lists it without the password, refuses bad names, revokes it', async () => {
    const created = await create(member, '  我的 rclone  ');
    expect(created.password).toMatch(/^[a-km-np-z2-9]{5}(-[a-km-np-z2-9]{5}){7}$/);
    expect(created.name).toBe('我的 rclone');
    expect(created.lastUsedAt).toBeNull();

    const list = await member.get<{ data: DevicePasswordList }>(API.devicePasswords);
    expect(list.body.data).toMatchObject({ enabled: true, username: 'member', davUrl: '/dav/' });
    expect(list.body.data.items.map((i) => i.name)).toContain('我的 rclone');
    expect(JSON.stringify(list.body)).not.toContain(created.password.slice(10));
    // Stored hashed: the database holds no part of the secret.
    const stored = await withDb(server, (db) => db.prepare('select * from device_passwords where id = ?').get(created.id) as Record<string, unknown>);
    expect(JSON.stringify(stored)).not.toContain(created.password.replace(/-/g, '').slice(8));

    expect((await member.post(API.devicePasswordCreate, { name: '   ' })).body).toMatchObject({ errorCode: ERRORS.DEVICE_PASSWORD_NAME_INVALID.code });
    expect((await member.post(API.devicePasswordCreate, { name: '我的 rclone' })).body).toMatchObject({ errorCode: ERRORS.DEVICE_PASSWORD_NAME_INVALID.code });
    expect((await member.post(API.devicePasswordCreate, { name: 'x'.repeat(65) })).body).toMatchObject({ errorCode: ERRORS.DEVICE_PASSWORD_NAME_INVALID.code });

    // Another user's id is not found, like one never issued.
    const res = await admin.post(API.devicePasswordRevoke, { id: created.id });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorCode: ERRORS.DEVICE_PASSWORD_NOT_FOUND.code });

    expect((await member.post(API.devicePasswordRevoke, { id: created.id })).status).toBe(200);
    expect((await member.get<{ data: DevicePasswordList }>(API.devicePasswords)).body.data.items.map((i) => i.id)).not.toContain(created.id);
    expect((await member.post(API.devicePasswordRevoke, { id: created.id })).status).toBe(404);

    const logged = await withDb(server, (db) =>
      db.prepare("select action, outcome, targets from action_log where action like 'account.devicePassword%' order by seq").all() as Array<{ action: string; outcome: string; targets: string }>,
    );
    const ok = logged.filter((r) => r.outcome === 'ok');
    expect(ok.map((r) => [r.action, (JSON.parse(r.targets) as Array<{ name: string }>)[0]!.name])).toEqual([
      ['account.devicePasswordCreate', '我的 rclone'],
      ['account.devicePasswordRevoke', '我的 rclone'],
    ]);
    expect(logged.filter((r) => r.outcome === 'refused').length).toBeGreaterThanOrEqual(5);
  });
});

describe('WebDAV sign-in', () => {
  it('gives the same caller as a session, client webdav, for the right name (any case) and password (dashes optional)', async () => {
    const { password } = await create(member, 'caller');
    for (const [name, pw] of [['member', password], ['MEMBER', password.replace(/-/g, '').toUpperCase()]] as const) {
      const res = await probe(basic(name, pw));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { caller: unknown }).caller).toEqual({
        userId: memberId,
        tenantId,
        username: 'member',
        role: 'member',
        passwordChangeType: 0,
        networkEnv: 'internal',
        platformAdmin: false,
        client: 'webdav',
      });
    }
  });

  it('asks for credentials with a UTF-8 Basic challenge, and refuses wrong ones alike', async () => {
    const { password } = await create(member, 'wrong-ones');
    await expectRefusal(await probe(), 'noCredentials');
    await expectRefusal(await probe({ authorization: 'Bearer abc' }), 'noCredentials');
    await expectRefusal(await probe(basic('member', 'not-a-device-password')), 'wrongCredentials');
    await expectRefusal(await probe(basic('admin', password)), 'wrongCredentials');
    // The web login password is not a device password.
    await expectRefusal(await probe(basic('member', MEMBER.password)), 'wrongCredentials');
    await expectRefusal(await probe(basic('nobody-such', password)), 'wrongCredentials');
    await clearFailures();
  });

  it('puts refused sign-ins on the action log (not a request without credentials)', async () => {
    const before = await withDb(server, (db) => (db.prepare("select count(*) as n from action_log where action = 'auth.davLogin'").get() as { n: number }).n);
    await expectRefusal(await probe(), 'noCredentials');
    await expectRefusal(await probe({ ...basic('member', 'wrong'), 'user-agent': 'rclone/v1.60' }), 'wrongCredentials');
    await expectRefusal(await probe(basic('nobody-such', 'wrong')), 'wrongCredentials');
    const rows = await withDb(
      server,
      (db) =>
        db.prepare("select tenant_id, actor_account, actor_id, outcome, error_code, platform, user_agent from action_log where action = 'auth.davLogin' order by seq").all() as Array<Record<string, unknown>>,
    );
    expect(rows.length - before).toBe(2);
    expect(rows.find((r) => r.actor_account === 'member' && r.user_agent === 'rclone/v1.60')).toMatchObject({
      tenant_id: tenantId,
      actor_id: memberId,
      outcome: 'refused',
      error_code: ERRORS.LOGIN_FAILED.code,
      platform: 'webdav',
    });
    expect(rows.find((r) => r.actor_account === 'nobody-such')).toMatchObject({ tenant_id: '', actor_id: null, outcome: 'refused' });
    await clearFailures();
  });

  it('takes UTF-8 account names', async () => {
    await addUser(server, tenantId, '张三', 'Zhang@2024');
    await liftPasswordGate(server, '张三');
    const zhang = await loggedInClient(server, { username: '张三', password: 'Zhang@2024' });
    const { password } = await create(zhang, 'Finder');
    const res = await probe(basic('张三', password));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { caller: { username: string } }).caller.username).toBe('张三');
  });

  it('refuses a revoked password from the next request', async () => {
    const created = await create(member, 'to-revoke');
    expect((await probe(basic('member', created.password))).status).toBe(200);
    await member.post(API.devicePasswordRevoke, { id: created.id });
    await expectRefusal(await probe(basic('member', created.password)), 'wrongCredentials');
    await clearFailures();
  });

  it('writes the last use at most once a minute', async () => {
    const created = await create(member, 'last-use');
    const lastUse = () => withDb(server, (db) => (db.prepare('select last_used_at from device_passwords where id = ?').get(created.id) as { last_used_at: number | null }).last_used_at);
    const before = Date.now();
    expect((await probe(basic('member', created.password))).status).toBe(200);
    const first = await lastUse();
    expect(first).toBeGreaterThanOrEqual(before);
    const listed = (await member.get<{ data: DevicePasswordList }>(API.devicePasswords)).body.data.items.find((i) => i.id === created.id);
    expect(listed).toMatchObject({ lastUsedAt: first, lastUsedAddress: '127.0.0.1' });
    for (let i = 0; i < 3; i++) expect((await probe(basic('member', created.password))).status).toBe(200);
    expect(await lastUse()).toBe(first);
    // A minute later the next request writes it again (the server runs in this process: its clock moves).
    const later = first! + 60_000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      expect((await probe(basic('member', created.password))).status).toBe(200);
    } finally {
      clock.mockRestore();
    }
    expect(await lastUse()).toBe(later);
  });

  it('throttles failures like logins (429, Retry-After), apart from the web login', async () => {
    const { password } = await create(member, 'throttle');
    for (let i = 0; i < 3; i++) await expectRefusal(await probe(basic('member', 'x')), 'wrongCredentials');
    const throttled = await probe(basic('member', password));
    await expectRefusal(throttled, 'tooManyAttempts');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    // The web login of the account is not slowed by WebDAV failures.
    const keys = await withDb(server, (db) => (db.prepare('select key from login_failures').all() as Array<{ key: string }>).map((r) => r.key));
    expect(keys.sort()).toEqual(['dav:acct:member', 'dav:addr:127.0.0.1']);
    expect((await loggedInClient(server, MEMBER)) instanceof Client).toBe(true);
    await clearFailures();
    // A right password forgets the name's failures.
    await probe(basic('member', 'x'));
    expect((await probe(basic('member', password))).status).toBe(200);
    const left = await withDb(server, (db) => (db.prepare('select key from login_failures').all() as Array<{ key: string }>).map((r) => r.key));
    expect(left).toEqual(['dav:addr:127.0.0.1']);
    await clearFailures();
  });

  it('refuses locked accounts, by an admin or by login failures', async () => {
    const { password } = await create(member, 'locked');
    await withDb(server, (db) => db.prepare("update users set locked = 1 where username = 'member'").run());
    await expectRefusal(await probe(basic('member', password)), 'accountLocked');
    await withDb(server, (db) => db.prepare("update users set locked = 0 where username = 'member'").run());
    await withDb(server, (db) => db.prepare("insert into login_failures (key, failures, first_failure_at, last_failure_at, locked) values ('acct:member', 10, 0, 0, 1)").run());
    await expectRefusal(await probe(basic('member', password)), 'accountLocked');
    await clearFailures();
    expect((await probe(basic('member', password))).status).toBe(200);
  });

  it('refuses a password that must be changed', async () => {
    const { password } = await create(member, 'expired');
    await withDb(server, (db) => db.prepare("update users set must_change_password = 1 where username = 'member'").run());
    await expectRefusal(await probe(basic('member', password)), 'passwordExpired');
    await liftPasswordGate(server, 'member');
    expect((await probe(basic('member', password))).status).toBe(200);
  });

  it("follows the tenant's WebDAV switch at once", async () => {
    const { password } = await create(member, 'switch');
    expect(await setWebdav(false)).toBe(200);
    await expectRefusal(await probe(basic('member', password)), 'davOff');
    expect((await member.get<{ data: DevicePasswordList }>(API.devicePasswords)).body.data.enabled).toBe(false);
    expect(await setWebdav(true)).toBe(200);
    expect((await probe(basic('member', password))).status).toBe(200);
  });

  it('refuses plain HTTP unless the client is on this machine', async () => {
    const { password } = await create(member, 'tls');
    await expectRefusal(await probe({ ...basic('member', password), 'x-forwarded-for': '203.0.113.7' }), 'plainHttp');
    // Without credentials too: nothing is asked for over plain HTTP.
    await expectRefusal(await probe({ 'x-forwarded-for': '203.0.113.7' }), 'plainHttp');
    const tls = await probe({ ...basic('member', password), 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' });
    expect(tls.status).toBe(200);
  });
});

describe('/dav/ signs in with device passwords', () => {
  it('lists the root for a live password, refuses it once revoked or switched off', async () => {
    const created = await create(member, 'finder');
    const propfind = () => fetch(`${server.baseUrl}/dav/`, { method: 'PROPFIND', headers: { ...basic('member', created.password), depth: '0' } });
    expect((await propfind()).status).toBe(207);
    const anonymous = await fetch(`${server.baseUrl}/dav/`, { method: 'PROPFIND', headers: { depth: '0' } });
    await expectRefusal(anonymous, 'noCredentials');
    expect(await setWebdav(false)).toBe(200);
    await expectRefusal(await propfind(), 'davOff');
    expect(await setWebdav(true)).toBe(200);
    await member.post(API.devicePasswordRevoke, { id: created.id });
    await expectRefusal(await propfind(), 'wrongCredentials');
    await clearFailures();
  });
});

describe('npm run dav:password', () => {
  it('prints a new password that signs in, recorded in the action log; refuses an unknown account', async () => {
    const run = async (...args: string[]) => {
      const dbUrl = await testDbUrl(server.dataDir);
      const env = { ...process.env, DB_URL: dbUrl ?? '' };
      return promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/dav/password-cli.ts', '--data-dir', server.dataDir, ...args], { env });
    };
    const { stdout } = await run('--user', 'member', '--name', 'litmus');
    const password = stdout.trim();
    expect(password).toMatch(/^[a-km-np-z2-9]{5}(-[a-km-np-z2-9]{5}){7}$/);
    expect((await probe(basic('member', password))).status).toBe(200);
    expect((await member.get<{ data: DevicePasswordList }>(API.devicePasswords)).body.data.items.map((i) => i.name)).toContain('litmus');
    const row = await withDb(server, (db) => db.prepare("select actor_account, detail from action_log where action = 'account.devicePasswordCreate' order by seq desc limit 1").get() as { actor_account: string; detail: string });
    expect(row.actor_account).toBe('system');
    expect(JSON.parse(row.detail)).toMatchObject({ account: 'member' });
    await expect(run('--user', 'nobody', '--name', 'x')).rejects.toMatchObject({ code: 1 });
  });
});
