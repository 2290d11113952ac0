import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { ticketResumeAllowance } from '../../common/api/sharing';
import { mkdir, text } from './file-kit';
import { liftPasswordGate, loggedInClient, MEMBER, startServer, uploadFile, type Client, type TestServer } from './helpers';
import { refusal, TicketClient } from './ticket-kit';
import { readZip } from '../support/zip-entries';

/**
 * Issue 35, finding 2: a counted download gives one copy. A ticket hands out at most one copy's
 * worth of bytes however its requests are ranged; a Range it does not honour exactly is refused
 * (416), never answered with the whole file again; HEAD uses nothing; a browser's resume of a cut or
 * hanging download still completes; parallel requests share the one copy. ZIP tickets are not ranged.
 */
let server: TestServer;
let member: Client;
let tickets: TicketClient;

const USED = `404 ${ERRORS.LINK_TICKET_INVALID.code}`;
const SPENT = `416 ${ERRORS.LINK_TICKET_SPENT.code}`;

beforeAll(async () => {
  server = await startServer();
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  tickets = new TicketClient(server, member);
});
afterAll(async () => {
  await server.close();
});

async function upload(content: Buffer, name: string): Promise<string> {
  const res = await uploadFile(member, content, name);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

/** The requests the outside test used to get the file again from a used ticket. */
const TRICKS: Array<Record<string, string>> = [
  {},
  { range: 'bytes=5-1' },
  { range: 'bytes=1-2,0-' },
  { range: 'bytes=1-', 'if-range': '"stale"' },
  { range: 'bytes=1-' },
  { range: 'bytes=0-' },
  { range: 'bytes=-10' },
  { range: 'bytes=0-0' },
  { range: 'items=0-5' },
];

describe('a file ticket', () => {
  const content = randomBytes(4000);
  let fileId: string;
  beforeAll(async () => {
    fileId = await upload(content, 'report.bin');
  });

  it('once used, answers every Range and If-Range trick with a refusal and no byte', async () => {
    const url = await tickets.ticket(fileId);
    const whole = await tickets.fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(content)).toBe(true);
    const answers = [];
    for (const headers of TRICKS) answers.push(refusal(await tickets.fetch(url, headers)));
    expect(answers).toEqual([USED, ...TRICKS.slice(1).map(() => SPENT)]);
    expect(tickets.served(url)).toBe(content.length);
    // Asked again, the same: a used ticket stays used.
    expect(refusal(await tickets.fetch(url, { range: 'bytes=5-1' }))).toBe(SPENT);
    const spent = await tickets.fetch(url, { range: 'bytes=1-' });
    expect(spent.headers['content-range']).toBe(`bytes */${content.length}`);
  });

  it('fresh, a Range it does not honour gets the whole file once (RFC 9110), then nothing more', async () => {
    const unhonoured: Array<Record<string, string>> = [{ range: 'bytes=5-1' }, { range: 'bytes=1-2,0-' }, { range: 'bytes=1-', 'if-range': '"stale"' }, { range: 'items=0-5' }];
    for (const headers of unhonoured) {
      const url = await tickets.ticket(fileId);
      const first = await tickets.fetch(url, headers);
      expect(first.status, JSON.stringify(headers)).toBe(200);
      expect(first.body.equals(content)).toBe(true);
      for (const again of TRICKS) expect((await tickets.fetch(url, again)).status).not.toBeLessThan(400);
      expect(tickets.served(url)).toBe(content.length);
    }
  });

  it('fresh, ranges add up to one copy: pieces in any order, then refused', async () => {
    const url = await tickets.ticket(fileId);
    const tail = await tickets.fetch(url, { range: 'bytes=1000-' });
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes 1000-3999/4000`);
    const head = await tickets.fetch(url, { range: 'bytes=0-999' });
    expect(head.status).toBe(206);
    expect(Buffer.concat([head.body, tail.body]).equals(content)).toBe(true);
    expect(refusal(await tickets.fetch(url, { range: 'bytes=0-0' }))).toBe(SPENT);
    expect(refusal(await tickets.fetch(url, { range: 'bytes=-1' }))).toBe(SPENT);
    expect(refusal(await tickets.fetch(url))).toBe(USED);
    // A range past the end is unsatisfiable whatever is left (and uses nothing).
    const other = await tickets.ticket(fileId);
    expect(refusal(await tickets.fetch(other, { range: 'bytes=4000-' }))).toBe(`416 ${ERRORS.RANGE_NOT_SATISFIABLE.code}`);
    expect((await tickets.fetch(other, { range: 'bytes=-10' })).body.equals(content.subarray(3990))).toBe(true);
    // What is left can be had, but no more than that: 3990 bytes, not 3991.
    expect(refusal(await tickets.fetch(other, { range: 'bytes=0-3990' }))).toBe(SPENT);
    expect((await tickets.fetch(other, { range: 'bytes=0-3989' })).status).toBe(206);
    expect(tickets.served(url)).toBe(content.length);
    expect(tickets.served(other)).toBe(content.length);
  });

  it('HEAD uses nothing: it answers what a GET would, fresh or used', async () => {
    const url = await tickets.ticket(fileId);
    for (let i = 0; i < 3; i++) {
      const head = await tickets.fetch(url, {}, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(String(content.length));
      expect(head.headers['accept-ranges']).toBe('bytes');
      expect(head.body.length).toBe(0);
    }
    const ranged = await tickets.fetch(url, { range: 'bytes=0-9' }, 'HEAD');
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-length']).toBe('10');
    const whole = await tickets.fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(content)).toBe(true);
    expect((await tickets.fetch(url, {}, 'HEAD')).status).toBe(404);
    expect((await tickets.fetch(url, { range: 'bytes=1-' }, 'HEAD')).status).toBe(416);
  });
});

describe('resume and parallel requests', () => {
  const big = randomBytes(64 * 1024 * 1024);
  let bigId: string;
  beforeAll(async () => {
    bigId = await upload(big, 'big.bin');
  });

  it('a browser resume (Range from where it stopped, If-Range) completes a cut download byte for byte', async () => {
    const url = await tickets.ticket(bigId);
    // Each cut client keeps a byte less than it received (as a browser loses what it had not written to
    // disk yet): bytes are lost in flight whatever the store's pieces and the server's pace. Kept whole,
    // a cut at the end of what a busy server had handed over would leave nothing lost and nothing to credit.
    const cut = async (keep: number, headers: Record<string, string> = {}) => {
      const got = await tickets.partial(url, keep + 1, 'cut', headers);
      return { ...got, body: got.body.subarray(0, keep) };
    };
    const first = await cut(1024 * 1024);
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    const second = await cut(4 * 1024 * 1024, { range: `bytes=${first.body.length}-`, 'if-range': etag });
    expect(second.status).toBe(206);
    const have = first.body.length + second.body.length;
    const rest = await tickets.fetch(url, { range: `bytes=${have}-`, 'if-range': etag });
    expect(rest.status).toBe(206);
    const file = Buffer.concat([first.body, second.body, rest.body]);
    expect(file.length).toBe(big.length);
    expect(file.equals(big)).toBe(true);
    // The copy is complete: nothing more, not even the bytes the cut connections lost on the way.
    expect(refusal(await tickets.fetch(url, { range: 'bytes=0-0', 'if-range': etag }))).toBe(SPENT);
    expect(refusal(await tickets.fetch(url, { range: `bytes=${first.body.length}-`, 'if-range': etag }))).toBe(SPENT);
    // The server's count: one copy taken; what it re-sent (lost in flight by the two cuts) within the allowance.
    const { served, credited } = await tickets.counters(url);
    expect(served).toBe(big.length);
    expect(credited).toBeGreaterThan(0);
    expect(credited).toBeLessThanOrEqual(ticketResumeAllowance(big.length));
  });

  it('a resume while the first connection still hangs takes over from it', async () => {
    const url = await tickets.ticket(bigId);
    const hanging = await tickets.partial(url, 2 * 1024 * 1024, 'stall');
    try {
      const rest = await tickets.fetch(url, { range: `bytes=${hanging.body.length}-`, 'if-range': String(hanging.headers.etag) });
      expect(rest.status).toBe(206);
      expect(Buffer.concat([hanging.body, rest.body]).equals(big)).toBe(true);
    } finally {
      hanging.close();
    }
    expect(refusal(await tickets.fetch(url, { range: 'bytes=0-0' }))).toBe(SPENT);
  });

  it('a resume claiming to start far behind where the cut connection was gets no second copy', async () => {
    const url = await tickets.ticket(bigId);
    const first = await tickets.partial(url, 20 * 1024 * 1024, 'cut');
    // It had 20 MiB; claiming to have none would need the whole file again.
    expect(refusal(await tickets.fetch(url, { range: 'bytes=0-', 'if-range': String(first.headers.etag) }))).toBe(SPENT);
    expect(refusal(await tickets.fetch(url))).toBe(USED);
    // What it may still have is the rest, from where it really stopped, and no more than one copy in all.
    const rest = await tickets.fetch(url, { range: `bytes=${first.body.length}-`, 'if-range': String(first.headers.etag) });
    expect(rest.status).toBe(206);
    expect(Buffer.concat([first.body, rest.body]).equals(big)).toBe(true);
    expect((await tickets.counters(url)).served).toBe(big.length);
  });

  it('two parallel requests share one copy', async () => {
    const url = await tickets.ticket(bigId);
    const both = await Promise.all([tickets.fetch(url), tickets.fetch(url)]);
    expect(both.map((g) => g.status).sort()).toEqual([200, 404]);
    expect(tickets.served(url)).toBe(big.length);

    const overlapping = await tickets.ticket(bigId);
    const size = big.length;
    // Overlapping by 5 %: together more than one copy. (The second starts far enough in that the first
    // cannot have sent up to it when it comes, which would make it a resume taking over the first.)
    const two = await Promise.all([
      tickets.fetch(overlapping, { range: `bytes=0-${Math.floor(size * 0.6)}` }),
      tickets.fetch(overlapping, { range: `bytes=${Math.floor(size * 0.55)}-` }),
    ]);
    expect(two.map((g) => g.status).sort()).toEqual([206, 416]);
    expect(tickets.served(overlapping)).toBeLessThanOrEqual(size);
    expect((await tickets.counters(overlapping)).served).toBeLessThanOrEqual(size);
  });

  it('a download manager (HEAD, then four parallel segments) gets exactly one copy', async () => {
    const url = await tickets.ticket(bigId);
    const head = await tickets.fetch(url, {}, 'HEAD');
    const size = Number(head.headers['content-length']);
    expect(size).toBe(big.length);
    const quarter = size / 4;
    const parts = await Promise.all([0, 1, 2, 3].map((i) => tickets.fetch(url, { range: `bytes=${i * quarter}-${(i + 1) * quarter - 1}`, 'if-range': String(head.headers.etag) })));
    expect(parts.map((p) => p.status)).toEqual([206, 206, 206, 206]);
    expect(Buffer.concat(parts.map((p) => p.body)).equals(big)).toBe(true);
    expect(refusal(await tickets.fetch(url, { range: 'bytes=0-0' }))).toBe(SPENT);
  });
});

describe('a folder (ZIP) ticket', () => {
  let folderId: string;
  beforeAll(async () => {
    const folder = await mkdir(member, '外发资料');
    await text(member, 'a.txt', 'A'.repeat(5000), folder.id);
    await uploadFile(member, randomBytes(10000), 'b.bin', { parentId: folder.id });
    folderId = folder.id;
  });

  it('is not ranged: fresh, any request gets the whole archive once; used, every trick is refused', async () => {
    const url = await tickets.ticket(folderId);
    const first = await tickets.fetch(url, { range: 'bytes=1-' });
    expect(first.status).toBe(200);
    expect(first.headers['accept-ranges']).toBe('none');
    expect(readZip(first.body).map((e) => e.name).sort()).toEqual(['外发资料/', '外发资料/a.txt', '外发资料/b.bin']);
    const answers = [];
    for (const headers of TRICKS) answers.push(refusal(await tickets.fetch(url, headers)));
    expect(answers).toEqual([USED, ...TRICKS.slice(1).map(() => SPENT)]);
    expect(tickets.served(url)).toBe(first.body.length);
  });

  it('HEAD uses nothing; parallel requests get one archive', async () => {
    const url = await tickets.ticket(folderId);
    const head = await tickets.fetch(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/zip');
    expect(head.headers['accept-ranges']).toBe('none');
    const both = await Promise.all([tickets.fetch(url), tickets.fetch(url, { range: 'bytes=1-' })]);
    // Which of the two comes first is up to the scheduler: one archive, one refusal (404 or, ranged, 416).
    expect(both.filter((g) => g.status === 200)).toHaveLength(1);
    expect(both.filter((g) => g.status !== 200).map(refusal)).toEqual([expect.stringMatching(/^(404 LNK-8108|416 LNK-8109)$/)]);
    expect(tickets.served(url)).toBe(both.find((g) => g.status === 200)!.body.length);
    expect((await tickets.fetch(url, {}, 'HEAD')).status).toBe(404);
  });
});
