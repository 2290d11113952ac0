/**
 * `npm run migrate:pg`: moves a SQLite installation's database to PostgreSQL, verifies it, and
 * resumes a run that was interrupted (docs/postgresql.md, "Moving an installation").
 *
 * 1. Source: DATA_DIR/drive.sqlite locked and read-only (source.ts); refused when a server uses it,
 *    when it is not at this version's schema, or when a foreign key points nowhere. Its per-table
 *    checksums make the run's fingerprint.
 * 2. Target: an empty database is migrated by the server's own migrations and gets the progress
 *    record; a target holding this source's interrupted run resumes; anything else is refused.
 * 3. Copy every table in foreign-key order, batch by batch (copy.ts); then the indexes are rebuilt,
 *    the foreign keys re-created (validated) and sequences moved past their columns.
 * 4. Verify counts, checksums and the action-log chains (verify.ts).
 * Stored files, partial uploads and keys stay in DATA_DIR: the PostgreSQL server uses the same one.
 */
import { loadChainKey } from '../storage/chain-key';
import { fingerprintOf } from './checksum';
import { copyTable, type CopyProgress } from './copy';
import { refuse } from './refusal';
import { SqliteSource } from './source';
import { PostgresTarget } from './target';
import { checksumSource, verifyActionLog, verifyTables, type ChainResult, type TableResult } from './verify';

export interface MigrateOptions {
  dataDir: string;
  to: string;
  batchSize: number;
  /** AUDIT_CHAIN_KEY, when the server takes its chain key from the environment. */
  chainKeyHex?: string;
  signal: AbortSignal;
  /** A line for the operator (what the run is doing). */
  say: (line: string) => void;
  onProgress?: (p: CopyProgress) => void;
}

export interface MigrateReport {
  resumed: boolean;
  /** When an earlier run verified this target (ISO time), else null: differences found now came after it. */
  verifiedBefore: string | null;
  /** Rows this run copied (a resumed run: only the rest). */
  copiedRows: number;
  /** Wall time of each phase: source checksums, target schema, copy, indexes and keys, verification. */
  seconds: { readSource: number; schema: number; copy: number; rebuild: number; verify: number };
  tables: TableResult[];
  chains: ChainResult[];
  /** Indexes rebuilt and foreign keys re-created (validated) after the copy. */
  indexes: number;
  foreignKeys: number;
  sequences: string[];
  ok: boolean;
}

export async function migrateToPostgres(options: MigrateOptions): Promise<MigrateReport> {
  const { say, signal } = options;
  let key: Buffer;
  try {
    key = await loadChainKey(options.dataDir, options.chainKeyHex, false);
  } catch (err) {
    throw refuse(`no action-log chain key (${(err as Error).message}): set AUDIT_CHAIN_KEY as the server has it, or point --data-dir at the server's data directory`);
  }
  const seconds = { readSource: 0, schema: 0, copy: 0, rebuild: 0, verify: 0 };
  let mark = Date.now();
  const lap = (phase: keyof typeof seconds): void => {
    const now = Date.now();
    seconds[phase] += (now - mark) / 1000;
    mark = now;
  };
  const source = await SqliteSource.open(options.dataDir);
  let target: PostgresTarget | undefined;
  try {
    await source.checkSchemaIsCurrent();
    source.checkForeignKeys();
    say(`source ${source.file}: ${source.tables.length} tables, reading checksums`);
    const sourceSums = await checksumSource(source, signal);
    const fingerprint = fingerprintOf(sourceSums);
    const total = sourceSums.reduce((n, s) => n + s.rows, 0);
    say(`source holds ${total} rows (fingerprint ${fingerprint.slice(0, 16)}…)`);
    lap('readSource');

    target = await PostgresTarget.connect(options.to);
    const state = await target.state();
    if (state.kind === 'foreign') {
      const list = state.tables.slice(0, 5).map((t) => `${t.name} ${t.rows}`).join(', ');
      throw refuse(`the target database is not empty (${list}${state.tables.length > 5 ? ', …' : ''}) and holds no migrate:pg run: point --to at a new, empty database`);
    }
    const resumed = state.kind === 'ours';
    if (state.kind === 'ours') {
      if (state.run.source_fingerprint !== fingerprint && state.run.verified_at) {
        throw refuse(
          `the target was moved from ${state.run.source} and verified at ${new Date(Number(state.run.verified_at)).toISOString()}; ` +
            'the source changed since (the old server ran again?): the two databases have diverged. Nothing was written.',
        );
      }
      if (state.run.source_fingerprint !== fingerprint) {
        throw refuse(
          `the target holds a migrate:pg run of another source, or of this one before it changed (${state.run.source}, started ` +
            `${new Date(Number(state.run.started_at)).toISOString()}): its rows no longer match. Drop and re-create the target database, then run again.`,
        );
      }
      await target.checkResumable(source.tables);
      say(state.run.verified_at ? 'target already migrated from this source: verifying again' : 'resuming the interrupted run');
    } else {
      say('target empty: migrating its schema (the server\'s migrations)');
      await target.begin(source.file, fingerprint, source.tables);
    }

    const progress = await target.progress();
    lap('schema');
    let copiedRows = 0;
    for (const table of source.tables) {
      const sum = sourceSums.find((s) => s.table === table.name)!;
      copiedRows += await copyTable(source, target, table, progress.get(table.name)!, {
        batchSize: options.batchSize,
        total: sum.rows,
        signal,
        onProgress: (p) => options.onProgress?.(p),
      });
    }
    lap('copy');
    const run = await target.run();
    say('rebuilding indexes and foreign keys');
    const indexes = await target.restoreIndexes(run);
    const foreignKeys = await target.restoreForeignKeys(run);
    const sequences = await target.fixSequences();
    if (!run.copied_at) await target.markRun('copied_at', Date.now());
    lap('rebuild');

    say('verifying: row counts, checksums, action-log chains');
    const tables = await verifyTables(target, source.tables, sourceSums, signal);
    const chains = await verifyActionLog(source, target, key);
    const ok = tables.every((t) => t.ok) && chains.every((c) => c.ok);
    // Once verified, always verified: a later run that finds differences (a server wrote since) says so, and the server still starts.
    if (ok && !run.verified_at) await target.markRun('verified_at', Date.now());
    const verifiedBefore = run.verified_at ? new Date(Number(run.verified_at)).toISOString() : null;
    lap('verify');
    return { resumed, verifiedBefore, copiedRows, seconds, tables, chains, indexes, foreignKeys, sequences, ok };
  } finally {
    await target?.close();
    source.close();
  }
}
