/**
 * `npm run radosgw --silent -- start|env|stop`: a real S3 server (Ceph radosgw, one node) for running the
 * server or the S3 tests by hand (docs/object-store.md, "A real radosgw").
 *
 *   eval "$(npm run radosgw --silent -- start)"   # starts it, creates the bucket, prints `export …` lines
 *   npm run radosgw --silent -- env               # the same lines again, for another shell
 *   npm run radosgw -- stop              # stops its three daemons by PID, removes the directory
 *
 * Options: --dir DIR (default $TMPDIR/drive-radosgw), --bucket NAME (default drive), --port N,
 * --bluestore (the OSD on a sparse file instead of in RAM, for big tests), --size-gib N (the OSD's
 * capacity: default 4 in RAM, 16 on file).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { blobStoreUrl, processAlive, startRadosgw, stopRadosgw, type RadosgwState } from '../support/radosgw';

interface CliState extends RadosgwState {
  bucket: string;
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string', default: path.join(os.tmpdir(), 'drive-radosgw') },
    bucket: { type: 'string', default: 'drive' },
    port: { type: 'string' },
    bluestore: { type: 'boolean' },
    'size-gib': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const dir = path.resolve(values.dir);
const stateFile = path.join(dir, 'state.json');
const command = positionals[0];

function usage(code: number): never {
  (code ? console.error : console.log)('usage: npm run radosgw --silent -- start|env|stop [--dir DIR] [--bucket NAME] [--port N] [--bluestore] [--size-gib N]');
  process.exit(code);
}

function readState(): CliState | null {
  if (!existsSync(stateFile)) return null;
  return JSON.parse(readFileSync(stateFile, 'utf8')) as CliState;
}

const quote = (v: string): string => `'${v.replace(/'/g, `'\\''`)}'`;

function exportLines(s: CliState): string {
  const env = {
    BLOB_STORE: blobStoreUrl(s.bucket, s.endpoint, s.region),
    AWS_ACCESS_KEY_ID: s.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s.secretAccessKey,
    AWS_REGION: s.region,
  };
  return Object.entries(env).map(([k, v]) => `export ${k}=${quote(v)}`).join('\n');
}

const running = (s: CliState): boolean => Object.values(s.pids).every((pid) => processAlive(pid));

async function main(): Promise<void> {
  if (values.help) usage(0);
  if (command === 'start') {
    const old = readState();
    if (old && running(old)) throw new Error(`radosgw already runs from ${dir} (${old.endpoint}): \`npm run radosgw -- stop\` first`);
    if (old) await stopRadosgw(old); // a stale directory from a crashed run
    const started = Date.now();
    const gib = values['size-gib'] === undefined ? undefined : Number(values['size-gib']);
    if (gib !== undefined && !(gib > 0)) throw new Error(`--size-gib ${values['size-gib']}: a size in GiB`);
    const gateway = await startRadosgw({
      dir,
      port: values.port ? Number(values.port) : undefined,
      backend: values.bluestore ? 'bluestore' : 'memstore',
      storeBytes: gib ? gib * 1024 ** 3 : undefined,
    });
    await gateway.createBucket(values.bucket);
    const state: CliState = {
      dir,
      endpoint: gateway.endpoint,
      region: gateway.region,
      accessKeyId: gateway.accessKeyId,
      secretAccessKey: gateway.secretAccessKey,
      backend: gateway.backend,
      pids: gateway.pids,
      bucket: values.bucket,
    };
    writeFileSync(stateFile, JSON.stringify(state, null, 2));
    console.error(`radosgw (${state.backend}) at ${state.endpoint}, bucket ${state.bucket}, up in ${((Date.now() - started) / 1000).toFixed(1)} s; pids ${JSON.stringify(state.pids)}; stop: npm run radosgw -- stop`);
    console.log(exportLines(state));
  } else if (command === 'env') {
    const state = readState();
    if (!state || !running(state)) throw new Error(`no radosgw runs from ${dir}: \`npm run radosgw --silent -- start\``);
    console.log(exportLines(state));
  } else if (command === 'stop') {
    const state = readState();
    if (!state) {
      console.error(`no radosgw state in ${dir}: nothing to stop`);
      return;
    }
    await stopRadosgw(state);
    console.error(`radosgw stopped (pids ${Object.values(state.pids).join(', ')}), ${dir} removed`);
  } else {
    usage(2);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
