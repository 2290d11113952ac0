import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster } from './start-cluster';

/**
 * `npm run start:cluster -- --processes 3`: the built web app served by N server processes on
 * PostgreSQL behind haproxy (docs/cluster.md). Environment as `npm start` (PORT, HOST, DATA_DIR,
 * DB_URL, DRIVE_TEST_HOOKS, TRUST_PROXY for proxies in front of the balancer…), plus TLS_CERT and
 * TLS_KEY (PEM files: the balancer terminates TLS). Without DB_URL it starts a PostgreSQL of its
 * own, kept in DATA_DIR/postgres (`--throwaway-db`: a temporary one, removed at exit).
 */
const USAGE = `usage: npm run start:cluster -- [--processes N] [--tls-cert FILE --tls-key FILE] [--throwaway-db]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      processes: { type: 'string', default: '3' },
      'tls-cert': { type: 'string', default: process.env.TLS_CERT },
      'tls-key': { type: 'string', default: process.env.TLS_KEY },
      'throwaway-db': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return void console.log(USAGE);
  const processes = Number(values.processes);
  if (!Number.isInteger(processes) || processes < 1 || processes > 64) throw new Error(`--processes must be 1–64, got '${values.processes}'\n${USAGE}`);
  const cert = values['tls-cert'];
  const key = values['tls-key'];
  if (Boolean(cert) !== Boolean(key)) throw new Error(`a TLS certificate needs its key and a key its certificate\n${USAGE}`);
  const dataDir = path.resolve(process.env.DATA_DIR || './data');
  const port = Number(process.env.PORT || 8080);
  const dbUrl = process.env.DB_URL || undefined;

  const stopStart = new AbortController();
  let stopping: Promise<void> | null = null;
  let cluster: Awaited<ReturnType<typeof startCluster>> | null = null;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    console.log(`[cluster] ${signal}: stopping the balancer, the servers${dbUrl ? '' : ' and PostgreSQL'}`);
    stopStart.abort();
    stopping = (cluster?.stop() ?? Promise.resolve()).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('[cluster] error while stopping:', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  cluster = await startCluster({
    processes,
    port,
    host: process.env.HOST || '0.0.0.0',
    dataDir,
    dbUrl,
    pgDir: dbUrl || values['throwaway-db'] ? undefined : path.join(dataDir, 'postgres'),
    tls: cert && key ? { certFile: cert, keyFile: key } : undefined,
    signal: stopStart.signal,
  });
  console.log(`[cluster] ${processes} server processes (pids ${cluster.pids().join(', ')}) behind haproxy at ${cluster.url}`);
  console.log(`[cluster] database ${cluster.dbUrl}; haproxy config ${cluster.haproxyConfigFile}; admin socket ${cluster.adminSocket}`);
}

main().catch((err: unknown) => {
  if (process.exitCode === undefined && err instanceof Error && err.name === 'AbortError') return; // Ctrl-C while starting: shutdown() exits
  console.error('[cluster] failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
