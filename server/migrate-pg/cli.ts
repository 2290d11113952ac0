/**
 * `npm run migrate:pg -- --data-dir D --to postgres://…/drive [--batch-size N] [--json]`
 *
 * Moves the SQLite database of the installation in D to the (empty) PostgreSQL database --to, checks
 * it, and prints per table the rows and checksums of both sides and per tenant the action-log chain.
 * Stop the server first. Interrupted (Ctrl-C, kill -9, a lost connection), the same command resumes.
 * Exit 0 all verified · 1 a count, checksum or chain differs · 2 could not run · 3 refused
 * (server running, source outdated, target not empty or of another source) · 130 interrupted.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isPostgresUrl } from '../db/postgres';
import type { CopyProgress } from './copy';
import { migrateToPostgres, type MigrateReport } from './migrate';
import { EXIT, MigrateStop } from './refusal';

const USAGE = 'usage: npm run migrate:pg -- --data-dir DATA_DIR --to postgres://user@host:5432/database [--batch-size 1000] [--json]';

/** The URL without its password, for printing. */
const shownUrl = (url: string): string => url.replace(/(\/\/[^:/@]+):[^@]*@/, '$1:***@');

function progressPrinter(): (p: CopyProgress) => void {
  let shownAt = 0;
  let table = '';
  let tableStart = Date.now();
  let copiedAtStart = 0;
  return (p) => {
    const now = Date.now();
    if (p.table !== table) {
      // A table's first batch sets the baseline of its rate; its first line comes a second later.
      table = p.table;
      tableStart = now;
      copiedAtStart = p.copied;
      shownAt = now;
    }
    if (p.done ? p.total === 0 : now - shownAt < 1000) return;
    shownAt = now;
    const rate = Math.round(((p.copied - copiedAtStart) / Math.max(1, now - tableStart)) * 1000);
    console.error(`  ${p.done ? 'copied ' : 'copying'} ${p.table.padEnd(26)} ${String(p.copied).padStart(9)} / ${p.total} rows${p.done ? '' : ` (${rate} rows/s)`}`);
  };
}

function printReport(r: MigrateReport): void {
  const w = Math.max(5, ...r.tables.map((t) => t.table.length));
  console.log(`${'table'.padEnd(w)}  ${'source rows'.padStart(11)}  ${'target rows'.padStart(11)}  checksum`);
  for (const t of r.tables) {
    const sum = t.ok ? `ok ${t.sourceChecksum.slice(0, 12)}` : `DIFFERS source ${t.sourceChecksum.slice(0, 12)} target ${t.targetChecksum.slice(0, 12)}`;
    console.log(`${t.table.padEnd(w)}  ${String(t.sourceRows).padStart(11)}  ${String(t.targetRows).padStart(11)}  ${sum}`);
  }
  for (const c of r.chains) {
    const name = c.tenantId === '' ? '(platform)' : c.tenantId;
    const state = c.ok
      ? `ok ${c.targetRows} rows, same head`
      : `BROKEN source: ${c.sourceBroken ?? 'holds'}; target: ${c.targetBroken ?? 'holds'}${c.sameHead ? '' : '; heads differ'}`;
    console.log(`action log ${name}: ${state}`);
  }
  if (r.chains.length === 0) console.log('action log: no chains yet');
  console.log(`indexes rebuilt: ${r.indexes}; foreign keys re-created and validated: ${r.foreignKeys}; sequences moved: ${r.sequences.length > 0 ? r.sequences.join(', ') : 'none (no serial or identity columns)'}`);
  const s = r.seconds;
  const rate = s.copy > 0 ? ` (${Math.round(r.copiedRows / s.copy)} rows/s)` : '';
  console.log(`${r.resumed ? 'resumed run: ' : ''}${r.copiedRows} rows copied in ${s.copy.toFixed(1)} s${rate}; ` +
    `source read ${s.readSource.toFixed(1)} s, schema ${s.schema.toFixed(1)} s, indexes and keys ${s.rebuild.toFixed(1)} s, verification ${s.verify.toFixed(1)} s`);
  if (r.ok) console.log('VERIFIED: the target matches the source.');
  else if (r.verifiedBefore) console.log(`MISMATCH: this target was verified at ${r.verifiedBefore}; it changed since (a server ran on it?), or the source did.`);
  else console.log('MISMATCH: see the lines above; do not start the server on the target.');
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { 'data-dir': { type: 'string' }, to: { type: 'string' }, 'batch-size': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
    }));
  } catch (err) {
    console.error(`migrate:pg: ${(err as Error).message}\n${USAGE}`);
    return EXIT.failed;
  }
  if (values.help) {
    console.log(USAGE);
    return EXIT.ok;
  }
  const to = values.to ?? '';
  const batchSize = Number(values['batch-size'] ?? 1000);
  if (!values['data-dir'] || !isPostgresUrl(to) || !Number.isInteger(batchSize) || batchSize < 1) {
    console.error(`migrate:pg: --data-dir and a postgres:// --to are required; --batch-size is a positive integer\n${USAGE}`);
    return EXIT.failed;
  }
  const dataDir = path.resolve(values['data-dir']);
  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    console.error(`migrate:pg: ${signal}: stopping after the current batch (again to quit at once)`);
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.error(`migrate:pg: ${dataDir} → ${shownUrl(to)}`);
  try {
    const report = await migrateToPostgres({
      dataDir,
      to,
      batchSize,
      chainKeyHex: process.env.AUDIT_CHAIN_KEY || undefined,
      signal: controller.signal,
      say: (line) => console.error(`migrate:pg: ${line}`),
      onProgress: progressPrinter(),
    });
    if (values.json) console.log(JSON.stringify(report));
    else printReport(report);
    if (report.ok) {
      console.error(`migrate:pg: next: start the server with DATA_DIR=${dataDir} DB_URL=${shownUrl(to)}; keep drive.sqlite until you are satisfied (a server started without DB_URL would still use it).`);
    }
    return report.ok ? EXIT.ok : EXIT.mismatch;
  } catch (err) {
    if (err instanceof MigrateStop) {
      const resume = err.exitCode === EXIT.interrupted ? '; progress is saved: run the same command again to resume' : '';
      console.error(`migrate:pg: ${err.message}${resume}`);
      return err.exitCode;
    }
    console.error('migrate:pg failed:', err);
    return EXIT.failed;
  }
}

main().then((code) => process.exit(code));
