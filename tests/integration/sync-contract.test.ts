/**
 * The simulation's fake server (tests/sync/sim/fake-server.ts) against the real one: the same script
 * of sync calls through the fake's RemoteApi and through HttpRemote on a real server, and the same
 * outcomes — names case-insensitive in NFC, mkdir returning the folder already there, uploads refused
 * on a stale ifMatch or a taken name, moves and renames, deletes left alone when the subtree changed,
 * verdicts, listings and their token. If the two ever disagree, the simulation proves nothing about
 * the real server: this test says where.
 */
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { subtreeOf, treeDigestInput } from '../../common/sync/tree-digest';
import { createNodeHashPool } from '../../workers/node/hash-pool';
import { createNodeChunkTransport } from '../../workers/node/chunk-transport';
import { engineConfigFor } from '../../workers/node/engine-config';
import { HttpRemote } from '../../workers/sync/http-remote';
import { baseName } from '../../workers/sync/names';
import type { RemoteEntry } from '../../workers/sync/model';
import { RemoteError, type RemoteApi, type UploadSession } from '../../workers/sync/ports';
import { digestsOf } from '../sync/sim/content';
import { FakeRemote } from '../sync/sim/fake-remote';
import { FakeServer } from '../sync/sim/fake-server';
import { Gate } from '../sync/sim/gate';
import { FakeClock } from '../sync/sim/rng';
import { loggedInJar } from '../support/drive-server';
import { startServer, type TestServer } from '../server/helpers';

let server: TestServer;
let pool: ReturnType<typeof createNodeHashPool>;

beforeAll(async () => {
  server = await startServer();
  pool = createNodeHashPool(Math.min(2, os.availableParallelism()));
});

afterAll(async () => {
  pool?.terminate();
  server?.app.server.closeAllConnections();
  await server?.close();
});

const session: UploadSession = { bytesDone: () => undefined, resume: null, save: async () => undefined };
const signal = () => AbortSignal.timeout(60_000);
const blob = (text: string) => new Blob([Buffer.from(text)]);
const digestOf = (id: string, listing: readonly RemoteEntry[]) =>
  createHash('sha256')
    .update(treeDigestInput(subtreeOf(id, listing).map((r) => ({ ...r, name: baseName(r.path), lockedByOther: r.lockedByOther ?? false }))))
    .digest('hex');

/** What a call came to, with ids left out (they differ between the servers). */
async function outcome<T>(call: () => Promise<T>, show: (value: T) => unknown = () => 'ok'): Promise<unknown> {
  try {
    return show(await call());
  } catch (error) {
    if (error instanceof RemoteError) return `error:${error.kind}`;
    throw error;
  }
}

/** The script: every step's outcome, in order. */
async function script(remote: RemoteApi): Promise<unknown[]> {
  const out: unknown[] = [];
  const chunkSize = await remote.chunkSize(signal());
  const root = await remote.ensureRoot('/契约/笔记本', signal());
  out.push(['same root again', (await remote.ensureRoot('/契约/笔记本', signal())) === root]);

  const dir = await remote.mkdir(root, 'Docs', signal());
  out.push(['mkdir of a case twin returns the folder', (await remote.mkdir(root, 'docs', signal())).id === dir.id]);
  out.push(['mkdir of a refused name', await outcome(() => remote.mkdir(root, 'a,b', signal()))]);

  const x = await remote.upload(blob('first'), { parentId: root, name: 'x.txt', replace: null }, null, session, signal());
  out.push(['fingerprint is the block list', x.fingerprint === digestsOf(Buffer.from('first'), chunkSize).fingerprint]);
  out.push(['new file where a case twin exists', await outcome(() => remote.upload(blob('twin'), { parentId: root, name: 'X.TXT', replace: null }, null, session, signal()))]);
  out.push([
    'new version with a stale ifMatch',
    await outcome(() => remote.upload(blob('stale'), { parentId: root, name: 'x.txt', replace: { id: x.id, ifMatch: '0'.repeat(64) } }, null, session, signal())),
  ]);
  const v2 = await remote.upload(blob('second'), { parentId: root, name: 'x.txt', replace: { id: x.id, ifMatch: x.fingerprint } }, null, session, signal());
  out.push(['new version keeps the id', v2.id === x.id]);
  out.push(['new version over a folder', await outcome(() => remote.upload(blob('f'), { parentId: root, name: 'docs', replace: { id: dir.id, ifMatch: null } }, null, session, signal()))]);

  let listing = await remote.listTree(root, null, signal());
  out.push(['listing', listing.entries!.map((e) => [e.path, e.isDir, e.size]).sort()]);
  out.push(['unchanged token', (await remote.listTree(root, listing.token, signal())).entries]);

  const chunks: Buffer[] = [];
  for await (const part of await remote.download(x.id, signal())) chunks.push(Buffer.from(part));
  out.push(['download', Buffer.concat(chunks).toString()]);

  out.push(['move into another folder under another name', await outcome(() => remote.move(x.id, dir.id, 'Y.txt', signal()))]);
  out.push(['move a folder into itself', await outcome(() => remote.move(dir.id, dir.id, 'Docs', signal()))]);
  out.push(['case-only rename', await outcome(() => remote.move(dir.id, root, 'DOCS', signal()))]);
  const z = await remote.upload(blob('z'), { parentId: root, name: 'z.txt', replace: null }, null, session, signal());
  out.push(['move onto a taken name', await outcome(() => remote.move(z.id, dir.id, 'y.TXT', signal()))]);
  listing = await remote.listTree(root, null, signal());
  out.push(['after moves', listing.entries!.map((e) => e.path).sort()]);

  // Deletes guarded by the digest: a folder changed after the listing stays.
  const stale = digestOf(dir.id, listing.entries!);
  await remote.upload(blob('late'), { parentId: dir.id, name: 'late.txt', replace: null }, null, session, signal());
  out.push(['delete a changed folder', await outcome(() => remote.remove([{ id: dir.id, digest: stale }], signal()), (r) => r.changed.length)]);
  listing = (await remote.listTree(root, null, signal())) as { token: string; entries: RemoteEntry[] };
  out.push(['delete as listed', await outcome(() => remote.remove([{ id: dir.id, digest: digestOf(dir.id, listing.entries!) }], signal()), (r) => r.changed.length)]);
  out.push(['delete again', await outcome(() => remote.remove([{ id: dir.id, digest: digestOf(dir.id, listing.entries!) }], signal()), (r) => r.changed.length)]);
  out.push(['after delete', (await remote.listTree(root, null, signal())).entries!.map((e) => e.path).sort()]);
  out.push(['names free again after delete', await outcome(() => remote.mkdir(root, 'docs', signal()), (e) => e.path)]);

  out.push([
    'verdicts',
    (await remote.check([
      { key: '1', name: 'a.exe', size: 1 },
      { key: '2', name: '机密★计划.txt', size: 1 },
      { key: '3', name: '秘密资料.txt', size: 1 },
      { key: '4', name: 'ok.txt', size: 1 },
    ], signal())).map((v) => v.verdict),
  ]);
  out.push(['upload of a blocked type', await outcome(() => remote.upload(blob('MZ'), { parentId: root, name: 'tool.exe', replace: null }, null, session, signal()))]);

  // Small files in one batch: each stored or refused on its own, as a single upload would be.
  const batchDir = await remote.mkdir(root, '批量', signal());
  const first = await remote.upload(blob('v1'), { parentId: batchDir.id, name: 'edit.txt', replace: null }, null, session, signal());
  const bytes = (text: string) => new Uint8Array(Buffer.from(text));
  const batch = await remote.uploadBatch(
    [
      { bytes: bytes('new one'), target: { parentId: batchDir.id, name: 'n1.txt', replace: null } },
      { bytes: bytes('twin'), target: { parentId: batchDir.id, name: 'EDIT.TXT', replace: null } },
      { bytes: bytes('stale'), target: { parentId: batchDir.id, name: 'edit.txt', replace: { id: first.id, ifMatch: '0'.repeat(64) } } },
      { bytes: bytes('v2'), target: { parentId: batchDir.id, name: 'edit.txt', replace: { id: first.id, ifMatch: first.fingerprint } } },
      { bytes: bytes('MZ'), target: { parentId: batchDir.id, name: 'tool.exe', replace: null } },
    ],
    signal(),
  );
  out.push([
    'batch outcomes',
    batch.map((o) => ('error' in o ? `error:${o.error.kind}` : o.fingerprint === digestsOf(Buffer.from(o.id === first.id ? 'v2' : 'new one'), chunkSize).fingerprint ? (o.id === first.id ? 'same id, new version' : 'created') : 'wrong fingerprint')),
  ]);
  out.push(['after batch', (await remote.listTree(batchDir.id, null, signal())).entries!.map((e) => [e.path, e.size]).sort()]);
  return out;
}

describe('the fake server keeps the real server’s contract', () => {
  it('answers the same script the same way', async () => {
    const clock = new FakeClock();
    const fake = await script(new FakeRemote(new FakeServer(clock), new Gate(() => undefined)));
    const jar = await loggedInJar(server.baseUrl, server.dataDir);
    const real = await script(
      new HttpRemote({ config: engineConfigFor(server.baseUrl), jar, transport: createNodeChunkTransport(jar), hashChunk: pool.hashChunk, hashConcurrency: pool.size }),
    );
    expect(real).toEqual(fake);
    // And the outcomes are the ones the sync relies on (not merely equal).
    expect(Object.fromEntries(fake as Array<[string, unknown]>)).toMatchObject({
      'same root again': true,
      'mkdir of a case twin returns the folder': true,
      'mkdir of a refused name': 'error:refused',
      'new file where a case twin exists': 'error:conflict',
      'new version with a stale ifMatch': 'error:conflict',
      'new version keeps the id': true,
      'unchanged token': null,
      'move a folder into itself': 'error:refused',
      'move onto a taken name': 'error:conflict',
      'delete a changed folder': 1,
      'delete as listed': 0,
      verdicts: ['intercepted', 'secret', 'sensitive', 'ok'],
      'upload of a blocked type': 'error:refused',
      'batch outcomes': ['created', 'error:conflict', 'error:conflict', 'same id, new version', 'error:refused'],
    });
  });
});
