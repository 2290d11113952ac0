import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketResumeAllowance } from '../../common/api/sharing';
import type { ServerConfig } from '../../server/config';
import { openDatabase, type Db } from '../../server/db/database';
import { LinkRepository } from '../../server/repositories/link-repository';
import { TicketMeter } from '../../server/services/sharing/ticket-meter';

/**
 * The ticket meter on a real SQLite database, step by step where the HTTP tests depend on timing:
 * a cut's span settled by the resume that continues at its end, a resume from inside it credited up
 * to the allowance and no more, a claim from far behind refused with nothing changed, parallel takes.
 */
let dir: string;
let db: Db;
let meter: TicketMeter;
let links: LinkRepository;
let n = 0;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ticket-meter-'));
  db = await openDatabase({ dataDir: dir, dbUrl: undefined } as ServerConfig);
  links = new LinkRepository(db);
  meter = new TicketMeter(links);
});
afterAll(async () => {
  await db.destroy();
  await fsp.rm(dir, { recursive: true, force: true });
});

async function ticket(): Promise<string> {
  const hash = `t${++n}`;
  await links.insertTicket({ id_hash: hash, link_id: 'l', tenant_id: 'x', file_ids: '[]', created_at: 0, expires_at: Date.now() + 3600_000, used_at: null, served: 0, credited: 0, cut_start: null, cut_end: null });
  return hash;
}

const SIZE = 1000;
const take = (hash: string, start: number, length: number) => meter.take(hash, { start, length, size: SIZE, stop: () => undefined, now: 1 });
const counters = async (hash: string) => {
  const row = (await meter.state(hash))!;
  return { served: Number(row.served), credited: Number(row.credited), cut: row.cut_start === null ? null : [Number(row.cut_start), Number(row.cut_end)] };
};

describe('ticket meter', () => {
  it('a cut response gives back what it did not send and leaves its span; a resume at its end settles it', async () => {
    const hash = await ticket();
    const first = (await take(hash, 0, SIZE))!;
    first.sent(600);
    await first.end(false);
    expect(await counters(hash)).toEqual({ served: 600, credited: 0, cut: [0, 600] });
    const rest = (await take(hash, 600, 400))!;
    rest.sent(400);
    await rest.end(true);
    expect(await counters(hash)).toEqual({ served: SIZE, credited: 0, cut: null });
    expect(await take(hash, 0, 1)).toBeNull();
    expect(await meter.wouldServe(hash, 0, 1, SIZE)).toBe(false);
  });

  it('a resume from inside the span gets those bytes again up to the allowance; from further back it is refused and changes nothing', async () => {
    const allowance = ticketResumeAllowance(SIZE);
    expect(allowance).toBe(250);
    const hash = await ticket();
    const first = (await take(hash, 0, SIZE))!;
    first.sent(600);
    await first.end(false);
    // From 300: 300 bytes lost would be needed, 250 may be re-sent.
    expect(await meter.wouldServe(hash, 300, 700, SIZE)).toBe(false);
    expect(await take(hash, 300, 700)).toBeNull();
    expect(await counters(hash)).toEqual({ served: 600, credited: 0, cut: [0, 600] });
    expect(await meter.wouldServe(hash, 400, 600, SIZE)).toBe(true);
    const rest = (await take(hash, 400, 600))!;
    rest.sent(600);
    await rest.end(true);
    expect(await counters(hash)).toEqual({ served: SIZE, credited: 200, cut: null });
    expect(await take(hash, 0, 1)).toBeNull();
  });

  it('credits add up to the allowance over the ticket life, however many cuts', async () => {
    const hash = await ticket();
    let start = 0;
    for (let i = 0; i < 6; i++) {
      const r = await take(hash, start, SIZE - start);
      if (!r) break;
      r.sent(200);
      await r.end(false);
      start += 100; // claims to have only half of what was sent
    }
    const { served, credited } = await counters(hash);
    expect(credited).toBeLessThanOrEqual(ticketResumeAllowance(SIZE));
    // Handed out in all: what is counted plus what was re-sent.
    expect(served + credited).toBeLessThanOrEqual(SIZE + ticketResumeAllowance(SIZE));
  });

  it('parallel takes of the whole copy: one passes', async () => {
    const hash = await ticket();
    const both = await Promise.all([take(hash, 0, SIZE), take(hash, 0, SIZE), take(hash, 500, 500)]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect((await counters(hash)).served).toBe(SIZE);
  });

  it('a continuation stops the response it continues and takes over from where the client is', async () => {
    const hash = await ticket();
    let stopped = false;
    const first = (await meter.take(hash, { start: 0, length: SIZE, size: SIZE, stop: () => (stopped = true), now: 1 }))!;
    first.sent(700);
    const resumed = take(hash, 650, 350);
    await new Promise((r) => setTimeout(r, 10));
    expect(stopped).toBe(true);
    await first.end(false);
    const rest = (await resumed)!;
    expect(rest).not.toBeNull();
    rest.sent(350);
    await rest.end(true);
    expect(await counters(hash)).toEqual({ served: SIZE, credited: 50, cut: null });
    // A request from byte 0 never stops a running response: it is refused while the copy is taken.
    const other = await ticket();
    let otherStopped = false;
    const running = (await meter.take(other, { start: 0, length: SIZE, size: SIZE, stop: () => (otherStopped = true), now: 1 }))!;
    running.sent(100);
    expect(await take(other, 0, SIZE)).toBeNull();
    expect(otherStopped).toBe(false);
    await running.end(false);
  });
});
