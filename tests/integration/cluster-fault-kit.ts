/**
 * What the cluster fault tests share (cluster-faults, cluster-frozen, cluster-disk-full): a
 * PostgreSQL of their own (so they can restart it, freeze it, fill its disk) under a cluster of
 * bundled servers behind haproxy; the engine's fetch and chunk transport recording every answer
 * that was not 2xx; whether a refusal was coded (§8); and `npm run audit:verify`'s tool run on the
 * cluster's database.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ChunkTransport } from '../../workers/engine/transport';
import type { FetchFn } from '../../workers/engine/api-client';
import { createNodeChunkTransport } from '../../workers/node/chunk-transport';
import type { Cluster } from '../../server/cluster/start-cluster';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export interface Refusal {
  what: string;
  status: number;
  body: unknown;
  /**
   * X-Served-By: the server process that answered (haproxy adds it to the servers' answers only, not to
   * its own), and the answer's type and length: an uncoded refusal then says who made it. They showed
   * a server's coded answer (JSON, 76 bytes) recorded with no body: the Node transport had dropped it
   * (workers/node/chunk-transport.ts, an abort after the answer arrived).
   */
  servedBy?: string | null;
  contentType?: string | null;
  contentLength?: string | null;
}

/** A refusal is coded (§8): an `errorCode` string in a JSON body. */
export const uncoded = (refusals: readonly Refusal[]): Refusal[] =>
  refusals.filter((r) => !(r.body && typeof r.body === 'object' && typeof (r.body as { errorCode?: unknown }).errorCode === 'string'));

const answerFacts = (header: (name: string) => string | null): Pick<Refusal, 'servedBy' | 'contentType' | 'contentLength'> => ({
  servedBy: header('x-served-by'),
  contentType: header('content-type'),
  contentLength: header('content-length'),
});

/** The engine's fetch and chunk transport, every non-2xx answer they got recorded. */
export function recording(jar: Parameters<typeof createNodeChunkTransport>[0], refusals: Refusal[]): { fetch: FetchFn; transport: ChunkTransport } {
  const transport = createNodeChunkTransport(jar);
  return {
    fetch: async (input, init) => {
      const res = await jar.fetch(input, init);
      if (res.status >= 300) {
        const body = await res.clone().text();
        let parsed: unknown = body;
        try {
          parsed = JSON.parse(body);
        } catch {
          // kept as text: not coded
        }
        refusals.push({ what: `${init?.method ?? 'GET'} ${String(input)}`, status: res.status, body: parsed, ...answerFacts((name) => res.headers.get(name)) });
      }
      return res;
    },
    transport: async (request) => {
      const answer = await transport(request);
      if (answer.status >= 300) refusals.push({ what: `chunk ${request.url}`, status: answer.status, body: answer.body, ...answerFacts(answer.header) });
      return answer;
    },
  };
}

export interface ChainReport {
  tenantId: string;
  rows: number;
  broken: unknown;
}

/** `npm run audit:verify`'s tool on the cluster's database (its own process): every chain's report. */
export async function auditVerify(cluster: Cluster, dataDir: string): Promise<ChainReport[]> {
  const out = await run(process.execPath, ['--import', 'tsx', 'server/audit-verify.ts', '--data-dir', dataDir, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DB_URL: cluster.dbUrl },
  });
  return JSON.parse(out.stdout) as ChainReport[];
}
