/**
 * Issue 36, "Several processes": what was kept in one process's memory (keyed locks, the login
 * serialisation) or decided by a read-then-write (SMS rate, link-code counts) must hold whichever of N
 * server processes on one PostgreSQL answers. Two real processes (process-pair.ts) on one database and
 * one data directory; each request goes to the process the test names. Runs on PostgreSQL on both
 * stages (on the SQLite stage with a throwaway cluster of its own).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { HEADER_PLATFORM } from '../../common/api/client-env';
import { API, downloadUrl } from '../../common/api/paths';
import { LINK_SLOW_AFTER } from '../../common/api/sharing';
import type { FileEntry } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { stopOwnPostgres } from '../support/postgres-database';
import { bytesReceived, openChunkRequest, untilBytesReceived } from './chunk-kit';
import { adminClient, CHILD_CHUNK_SIZE } from './child-server';
import { Client, postChunkExist, postLoginForm, putChunk, randomContent, solveCaptcha, type Answer, type TestServer } from './helpers';
import { entries } from './file-kit';
import { startProcessPair, type ProcessPair } from './process-pair';

const CHUNK = CHILD_CHUNK_SIZE;
const LOGIN_SLOW_AFTER = 3;

let pair: ProcessPair;
let onA: Client;
let onB: Client;

beforeAll(async () => {
  pair = await startProcessPair({
    TRUST_PROXY: 'loopback',
    LOGIN_SLOW_AFTER: String(LOGIN_SLOW_AFTER),
    LOGIN_ADDRESS_SLOW_AFTER: '100',
    LOGIN_DELAY_BASE_MS: '10000',
    LOGIN_DELAY_MAX_MS: '20000',
    SMS_RESEND_MS: '60000',
    SMS_PER_ADDRESS_PER_HOUR: '1000',
  });
  onA = await adminClient(pair.a, pair.dataDir);
  // One session, both processes: sessions live in the database.
  onB = new Client(pair.b.baseUrl);
  onB.cookie = onA.cookie;
});
afterAll(async () => {
  await pair?.close();
  await stopOwnPostgres();
});

let addressSeq = 0;
const freshAddress = (): Record<string, string> => ({ 'x-forwarded-for': `10.36.${Math.floor(++addressSeq / 250)}.${addressSeq % 250}` });
const errorCode = (res: Answer): string => (res.body as { errorCode?: string }).errorCode ?? 'ok';
const count = (codes: string[], code: string): number => codes.filter((c) => c === code).length;
const serverOf = (run: { baseUrl: string }): TestServer => ({ ...pair.shared, baseUrl: run.baseUrl });

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: pair.dbUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('sign-in state is the same whichever process answers', () => {
  it('wrong passwords fired at both processes at once are counted as one series', async () => {
    const name = 'pair-target';
    const solved = [];
    for (let i = 0; i < 8; i++) solved.push(await solveCaptcha(pair.shared, new Client(pair.a.baseUrl)));
    const answers = await Promise.all(
      solved.map(({ captchaId, answer }, i) =>
        postLoginForm(
          new Client(i % 2 ? pair.b.baseUrl : pair.a.baseUrl),
          { username: name, password: encryptPassword('Wrong@2024'), captchaId, captchaCode: answer },
          freshAddress(),
        ),
      ),
    );
    const codes = answers.map((a) => errorCode(a as Answer));
    expect(count(codes, ERRORS.LOGIN_FAILED.code), codes.join()).toBe(LOGIN_SLOW_AFTER);
    expect(count(codes, ERRORS.TOO_MANY_ATTEMPTS.code), codes.join()).toBe(8 - LOGIN_SLOW_AFTER);
    const [row] = await query<{ failures: number }>(`select failures from login_failures where key = $1`, [`acct:${name}`]);
    expect(Number(row?.failures)).toBe(LOGIN_SLOW_AFTER);
  });

  it('a captcha made on A is answered on B, once', async () => {
    const { captchaId, answer } = await solveCaptcha(serverOf(pair.a), new Client(pair.a.baseUrl));
    const checked = await new Client(pair.b.baseUrl).get(`${API.captchaValidate}?captchaId=${captchaId}&captchaCode=${answer}`);
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    const login = () => postLoginForm(new Client(pair.a.baseUrl), { username: 'admin', password: encryptPassword('Admin@2024'), captchaId, captchaCode: answer }, freshAddress());
    expect((await login()).status).toBe(200);
    expect(errorCode(await login())).toBe(ERRORS.CAPTCHA_INVALID.code);
  });

  it('SMS codes asked of both processes at once for one phone: one is sent, the rest are too frequent', async () => {
    const phone = '13900000036';
    const solved = [];
    for (let i = 0; i < 6; i++) solved.push(await solveCaptcha(pair.shared, new Client(pair.a.baseUrl)));
    const answers = await Promise.all(
      solved.map(({ captchaId, answer }, i) => {
        const q = new URLSearchParams({ phone, purpose: 'login', captchaId, captchaCode: answer });
        return new Client(i % 2 ? pair.b.baseUrl : pair.a.baseUrl).request('GET', `${API.smsSend}?${q}`, undefined, { ...freshAddress(), [HEADER_PLATFORM]: 'web' });
      }),
    );
    const codes = answers.map(errorCode);
    expect(count(codes, 'ok'), codes.join()).toBe(1);
    expect(count(codes, ERRORS.SMS_TOO_FREQUENT.code), codes.join()).toBe(5);
    const [row] = await query<{ n: number }>(`select count(*) as n from sms_codes where phone = $1`, [phone]);
    expect(Number(row?.n)).toBe(1);
  });

  it('wrong link codes fired at both processes at once are all counted, and slowed as one series', async () => {
    const token = randomBytes(24).toString('base64url'); // 32 characters, issued to nobody: counted alike
    const attempts = 2 * LINK_SLOW_AFTER;
    const answers = await Promise.all(
      Array.from({ length: attempts }, (_, i) => new Client(i % 2 ? pair.b.baseUrl : pair.a.baseUrl).request('POST', API.linkOpen, { token, code: `zz${i}q` }, freshAddress())),
    );
    const codes = answers.map(errorCode);
    expect(count(codes, ERRORS.LINK_INVALID.code), codes.join()).toBe(LINK_SLOW_AFTER);
    expect(count(codes, ERRORS.LINK_TOO_MANY_ATTEMPTS.code), codes.join()).toBe(attempts - LINK_SLOW_AFTER);
    const rows = await query<{ failures: number }>(`select failures from link_failures where key like 'tok:%'`);
    expect(rows.map((r) => Number(r.failures))).toEqual([LINK_SLOW_AFTER]);
  });
});

/** Opens an upload of `content` on A (announced digests) and answers its id. */
async function openUpload(content: Buffer, name: string): Promise<string> {
  const res = await postChunkExist(onA, content, name, { chunkSize: CHUNK });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.uploadId;
}

const chunkOf = (content: Buffer, index: number): Buffer => content.subarray(index * CHUNK, (index + 1) * CHUNK);

async function expectBytes(fileId: string, content: Buffer): Promise<void> {
  const res = await onA.raw(downloadUrl(fileId));
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
}

async function mergeOn(client: Client, uploadId: string, name: string, clientKey?: string): Promise<Answer<{ data: FileEntry }>> {
  return client.post<{ data: FileEntry }>(API.chunkMerge, { uploadId, name, parentId: null, category: 1, ...(clientKey ? { clientKey } : {}) });
}

describe('uploads are whole whichever process receives them', () => {
  it('one chunk sent to A (paced) and to B (at once) together: both answered, the file byte-exact', async () => {
    const content = randomContent(3 * CHUNK);
    const name = 'pair-same-chunk.bin';
    const uploadId = await openUpload(content, name);
    const chunk = chunkOf(content, 1);
    const before = await bytesReceived(onA);
    const paced = openChunkRequest(serverOf(pair.a), onA, uploadId, 1, chunk);
    await paced.send(chunk.subarray(0, CHUNK / 2));
    await untilBytesReceived(onA, before + CHUNK / 2);
    const atOnce = putChunk(onB, uploadId, 1, chunk);
    await new Promise((r) => setTimeout(r, 400));
    await paced.send(chunk.subarray(CHUNK / 2));
    expect(await paced.answer).toBe(200);
    expect((await atOnce).status).toBe(200);
    expect((await putChunk(onA, uploadId, 0, chunkOf(content, 0))).status).toBe(200);
    expect((await putChunk(onB, uploadId, 2, chunkOf(content, 2))).status).toBe(200);
    const merged = await mergeOn(onB, uploadId, name);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    await expectBytes(merged.body.data.id, content);
  });

  it('a chunk whose request on A went quiet is taken over by its retry on B', async () => {
    const content = randomContent(2 * CHUNK);
    const name = 'pair-quiet-chunk.bin';
    const uploadId = await openUpload(content, name);
    const chunk = chunkOf(content, 0);
    const before = await bytesReceived(onA);
    const quiet = openChunkRequest(serverOf(pair.a), onA, uploadId, 0, chunk);
    await quiet.send(chunk.subarray(0, CHUNK / 4));
    await untilBytesReceived(onA, before + CHUNK / 4);
    // A holds the chunk and hears nothing more; B's retry waits, A's holder is cut once quiet for 2 s.
    const retry = await putChunk(onB, uploadId, 0, chunk);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    const ended = await Promise.race([quiet.answer, new Promise((r) => setTimeout(() => r('still open'), 10_000))]);
    expect(ended).not.toBe('still open');
    expect(ended).not.toBe(200);
    expect((await putChunk(onA, uploadId, 1, chunkOf(content, 1))).status).toBe(200);
    const merged = await mergeOn(onA, uploadId, name);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    await expectBytes(merged.body.data.id, content);
  });

  it('the same merge asked of A and B at once makes one file, and both answer it', async () => {
    const content = randomContent(8 * CHUNK);
    const name = 'pair-merge.bin';
    const uploadId = await openUpload(content, name);
    for (let i = 0; i < 8; i++) expect((await putChunk(i % 2 ? onB : onA, uploadId, i, chunkOf(content, i))).status).toBe(200);
    const clientKey = randomBytes(12).toString('base64url');
    const [first, second] = await Promise.all([mergeOn(onA, uploadId, name, clientKey), mergeOn(onB, uploadId, name, clientKey)]);
    expect([first.status, second.status], JSON.stringify([first.body, second.body])).toEqual([200, 200]);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect((await entries(onA, null)).filter((e) => e.name.startsWith('pair-merge'))).toHaveLength(1);
    await expectBytes(first.body.data.id, content);
    const [uploads] = await query<{ n: number }>(`select count(*) as n from uploads where id = $1`, [uploadId]);
    expect(Number(uploads?.n)).toBe(0);
  });
});
