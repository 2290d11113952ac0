import { createHash } from 'node:crypto';
import http from 'node:http';
import { expect } from 'vitest';
import { API } from '../../common/api/paths';
import type { LinkDownloadResponse } from '../../common/api/sharing';
import { Client, withDb, type TestServer } from './helpers';
import { link, openLink } from './sharing-kit';

/**
 * Link tickets over plain HTTP (node:http, no connection reuse): whole and ranged requests, HEAD,
 * responses cut off part-way as a failing network would, and a tally of every body byte each ticket
 * handed out, so a test can say how many copies a ticket gave.
 */

export interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export class TicketClient {
  /** Body bytes of 2xx answers, per ticket address. */
  readonly tally = new Map<string, number>();

  constructor(
    private readonly server: TestServer,
    private readonly owner: Client,
  ) {}

  /** A fresh ticket of a link with a download limit of 1 (the one counted download taken). */
  async ticket(entryId: string): Promise<string> {
    const info = await link(this.owner, entryId, { downloadLimit: 1 });
    const visitor = new Client(this.server.baseUrl);
    const opened = await openLink(visitor, info.token, info.code);
    const res = await visitor.post<{ data: LinkDownloadResponse }>(API.linkDownload, { visit: opened.visit, ids: [entryId] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.url;
  }

  private count(url: string, got: Got): Got {
    if (got.status >= 200 && got.status < 300) this.tally.set(url, (this.tally.get(url) ?? 0) + got.body.length);
    return got;
  }

  served(url: string): number {
    return this.tally.get(url) ?? 0;
  }

  /** The ticket's counters in the database: bytes taken of its copy, and bytes re-sent to resumes. */
  async counters(url: string): Promise<{ served: number; credited: number }> {
    const hash = createHash('sha256').update(url.slice(url.lastIndexOf('/') + 1), 'utf8').digest('hex');
    const row = await withDb(this.server, (db) => db.prepare('select served, credited from share_link_tickets where id_hash = ?').get(hash) as { served: number; credited: number });
    return { served: Number(row.served), credited: Number(row.credited) };
  }

  /** One whole request; the answer and its whole body. */
  fetch(url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET'): Promise<Got> {
    return new Promise<Got>((resolve, reject) => {
      const req = http.request(this.server.baseUrl + url, { method, headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve(this.count(url, { status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) })));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  /**
   * Reads until at least `keep` body bytes arrived, then either destroys the connection (`cut`, a
   * network failure) or stops reading and leaves it open (`stall`, a connection that hangs, as after
   * a network change). Answers the bytes read and, for a stalled one, how to close it.
   */
  partial(url: string, keep: number, how: 'cut' | 'stall', headers: Record<string, string> = {}): Promise<Got & { close: () => void }> {
    return new Promise((resolve, reject) => {
      const req = http.request(this.server.baseUrl + url, { headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        let got = 0;
        let done = false;
        res.on('data', (d: Buffer) => {
          if (done) return;
          parts.push(d);
          got += d.length;
          if (got < keep) return;
          done = true;
          if (how === 'cut') req.destroy();
          else res.pause();
          const answer = this.count(url, { status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) });
          resolve({ ...answer, close: () => req.destroy() });
        });
        res.on('end', () => {
          if (!done) reject(new Error(`the response ended after ${got} bytes, before ${keep}`));
        });
        res.on('error', () => undefined);
      });
      req.on('error', (err) => {
        if (!(err as NodeJS.ErrnoException).code?.startsWith('ECONNRESET')) reject(err);
      });
      req.end();
    });
  }
}

/** A refusal of a ticket that sends no content: its status and error code. */
export function refusal(got: Got): string {
  const text = got.body.toString('utf8');
  let code = '-';
  try {
    code = (JSON.parse(text) as { errorCode?: string }).errorCode ?? '-';
  } catch {
    code = `body of ${got.body.length} bytes`;
  }
  return `${got.status} ${code}`;
}
