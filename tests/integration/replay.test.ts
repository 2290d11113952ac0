/**
 * `npm run replay` end to end: the CLI (a child process) replays an exported queue against the real
 * server, logging in through the captcha outbox, and reports each item.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueExport } from '../../common/transfer/engine-api';
import { writeRandomFile } from '../support/drive-server';
import { ADMIN, startServer, type TestServer } from '../server/helpers';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

let server: TestServer;
let dir: string;

function exportItem(name: string, size: number, extra: Partial<QueueExport['items'][number]> = {}): QueueExport['items'][number] {
  return { id: `x-${name}`, direction: 'upload', name, size, target: { parentId: null, category: 1 }, state: 'uploading', ...extra };
}

async function runCli(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/replay/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, out };
}

beforeAll(async () => {
  server = await startServer();
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-replay-'));
  await fsp.mkdir(path.join(dir, 'files', 'photos'), { recursive: true });
  await writeRandomFile(path.join(dir, 'files', 'a.bin'), 5 * 1024 * 1024 + 3);
  await writeRandomFile(path.join(dir, 'files', 'photos', 'b.bin'), 1000);
  await writeRandomFile(path.join(dir, 'files', 'wrong-size.bin'), 10);
});

afterAll(async () => {
  // Cut connections the proxy reset mid-body first: the server's close() waits for them otherwise.
  server?.app.server.closeAllConnections();
  await server?.close();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

describe('npm run replay', () => {
  it('replays an exported queue, reports every item, and fails when one cannot be replayed', async () => {
    const queue: QueueExport = {
      format: 'cloud-drive-queue',
      version: 1,
      exportedAt: Date.now(),
      items: [
        exportItem('a.bin', 5 * 1024 * 1024 + 3, { state: 'failed', attempts: 8, lastError: '网络中断' }),
        exportItem('b.bin', 1000, { relativePath: 'photos/b.bin', state: 'paused' }),
        exportItem('wrong-size.bin', 11),
        exportItem('nowhere.bin', 5),
      ],
    };
    await fsp.writeFile(path.join(dir, 'queue.json'), JSON.stringify(queue));
    const common = ['--server', server.baseUrl, '--files', path.join(dir, 'files'), '--user', ADMIN.username, '--password', ADMIN.password, '--data-dir', server.dataDir];

    const first = await runCli([path.join(dir, 'queue.json'), ...common]);
    expect(first.code, first.out).toBe(1);
    expect(first.out).toMatch(/a\.bin {2}done .*sent=5242883 .*via=(chunks|instant)/);
    expect(first.out).toMatch(/b\.bin {2}done /);
    expect(first.out).toMatch(/wrong-size\.bin {2}missing .*size 10 ≠ 11/);
    expect(first.out).toMatch(/nowhere\.bin {2}missing /);
    expect(first.out).toMatch(/summary: 4 items, 2 done .*2 missing.*FAILED/);

    // Only replayable items → exit code 0.
    queue.items = queue.items.slice(0, 1).map((i) => ({ ...i, name: 'a-again.bin', relativePath: 'a.bin' }));
    await fsp.writeFile(path.join(dir, 'queue-ok.json'), JSON.stringify(queue));
    const second = await runCli([path.join(dir, 'queue-ok.json'), ...common]);
    expect(second.code, second.out).toBe(0);
    expect(second.out).toMatch(/summary: 1 items, 1 done/);
  });

  it('explains its usage and exits 2 without a server', async () => {
    const r = await runCli([path.join(dir, 'queue.json')]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/usage: npm run replay/);
  });
});
