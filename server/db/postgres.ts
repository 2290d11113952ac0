/**
 * PostgreSQL connection for `DB_URL=postgres://…`: Kysely's PostgresDialect over a `pg` pool.
 *
 * `pg` returns 64-bit integers (`bigint` columns, `count(*)`) and `numeric` (`sum` of a bigint) as
 * strings, because they may exceed 2^53. Every such value of ours (sizes, times in ms, counters) is
 * below 2^53 and the code expects numbers, as better-sqlite3 gives them: the pool parses them to
 * numbers, and refuses (throws) a value a JS number cannot hold exactly instead of rounding it.
 */
import pg from 'pg';
import { PostgresDialect, type Dialect } from 'kysely';
import { PREPARED_STATEMENTS_PER_CONNECTION, withPreparedStatements } from './pg-prepared';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function exactNumber(text: string): number {
  const n = Number(text);
  if (/^-?\d+$/.test(text) && !Number.isSafeInteger(n)) {
    throw new Error(`database value ${text} does not fit a JavaScript number exactly`);
  }
  return n;
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return exactNumber;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export interface PostgresOptions {
  /** Connections in the pool (PG_POOL_SIZE; default 10). */
  max?: number;
  /** Named prepared statements kept per connection (PG_PREPARED_STATEMENTS; 0 = none; db/pg-prepared.ts). */
  preparedStatements?: number;
  /** Every transaction read-only (tools that must not write, such as audit:verify). */
  readOnly?: boolean;
  /**
   * PostgreSQL ends a session left idle inside a transaction this long (`idle_in_transaction_session_timeout`):
   * a frozen server process releases the rows its open transaction locked (the server: LOCK_LEASE_MS).
   */
  idleInTransactionMs?: number;
}

/** A pool for `url`; `application_name` shows the server in pg_stat_activity. */
export function createPostgresPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    application_name: 'drive-server',
    options: [
      ...(options.readOnly ? ['-c default_transaction_read_only=on'] : []),
      ...(options.idleInTransactionMs ? [`-c idle_in_transaction_session_timeout=${options.idleInTransactionMs}`] : []),
    ].join(' ') || undefined,
  });
  // An idle connection the server closed (a PostgreSQL restart) emits 'error' on the pool; without a
  // listener that would end the process. The next query takes a fresh connection.
  pool.on('error', () => {});
  // The pool listens only to idle connections: one checked out (a transaction between two statements,
  // a connection held while other work is awaited) that PostgreSQL closes emitted 'error' with no
  // listener, and every server process died at once on a PostgreSQL restart (tests/integration/
  // cluster-faults.test.ts). Its user learns of it from its next query, which fails (a coded 500).
  pool.on('connect', (client) => void client.on('error', () => {}));
  return pool;
}

export function createPostgresDialect(url: string, options: PostgresOptions = {}): Dialect {
  return new PostgresDialect({ pool: withPreparedStatements(createPostgresPool(url, options), options.preparedStatements ?? PREPARED_STATEMENTS_PER_CONNECTION) });
}

/**
 * A value read from SQLite (better-sqlite3 with safe integers: 64-bit integers as bigint) as a
 * parameter for PostgreSQL, for `npm run migrate:pg`. The same rule as reading back: an integer a JS
 * number cannot hold exactly is refused (the server could not read it back), and so is what
 * PostgreSQL's `text` cannot hold (a NUL character) or what none of our columns is (a blob).
 * Throws a message naming the value's problem; the caller adds the table and row.
 */
export function sqliteValueForPostgres(value: unknown): string | number | null {
  if (value === null || typeof value === 'string' || typeof value === 'number') {
    if (typeof value === 'string' && value.includes('\u0000')) throw new Error('text with a NUL character (PostgreSQL text cannot hold it)');
    return value;
  }
  if (typeof value === 'bigint') {
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new Error(`integer ${value} does not fit a JavaScript number exactly`);
    return n;
  }
  throw new Error(`a ${Buffer.isBuffer(value) ? 'blob' : typeof value} value (no column of ours holds one)`);
}

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);
