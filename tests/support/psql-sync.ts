/**
 * Test-only: a synchronous handle on a PostgreSQL test database with the slice of better-sqlite3's
 * API the server tests use for setup and inspection (`prepare(sql).get/all/run`, `exec`,
 * `transaction`), so the same test code reads and pokes the server's database on both engines.
 * Each statement runs through `psql` (synchronously, as better-sqlite3 is); `?` placeholders are
 * bound as quoted literals; rows come back through json_agg, so numbers stay numbers.
 * Outside the product: the server itself only speaks to PostgreSQL through Kysely over `pg`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { postgresBinDir } from './postgres';

type Param = string | number | bigint | null | undefined | boolean | Buffer;

function literal(value: Param): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'::bytea`;
  return `'${value.replace(/'/g, "''")}'`;
}

/** Replaces each `?` outside quotes with the next parameter as a literal. */
export function bindParams(text: string, params: Param[]): string {
  let out = '';
  let i = 0;
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      if (i >= params.length) throw new Error(`too few parameters for: ${text}`);
      out += literal(params[i++]);
    } else out += ch;
  }
  if (i !== params.length) throw new Error(`${params.length} parameters for ${i} placeholders: ${text}`);
  return out;
}

function psqlPath(): string {
  const bin = postgresBinDir();
  const own = bin ? path.join(bin, 'psql') : '';
  return own && existsSync(own) ? own : 'psql';
}

export interface SyncStatement {
  get(...params: Param[]): unknown;
  all(...params: Param[]): unknown[];
  run(...params: Param[]): { changes: number };
}

export class PsqlSyncDb {
  private readonly psql = psqlPath();

  constructor(private readonly url: string) {}

  /** Writes queued by transaction(): sent together, in one BEGIN … COMMIT, when it ends. */
  private pending: string[] | null = null;

  private psqlRun(text: string): string {
    // The statement goes through stdin: a command-line argument is limited to 128 KiB.
    return execFileSync(this.psql, ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', this.url, '-f', '-'], {
      input: text,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
      maxBuffer: 256 * 1024 * 1024,
    });
  }

  private rows(text: string): Record<string, unknown>[] {
    const trimmed = text.trim().replace(/;$/, '');
    const query = /^(select|with|values)\b/i.test(trimmed)
      ? `select coalesce(json_agg(t), '[]'::json) from (${trimmed}) t`
      : `with t as (${trimmed}) select coalesce(json_agg(t), '[]'::json) from t`;
    return JSON.parse(this.psqlRun(query)) as Record<string, unknown>[];
  }

  prepare(text: string): SyncStatement {
    return {
      get: (...params) => this.rows(bindParams(text, params))[0],
      all: (...params) => this.rows(bindParams(text, params)),
      run: (...params) => {
        const bound = bindParams(text, params).trim().replace(/;$/, '');
        if (this.pending) {
          this.pending.push(`${bound};`);
          return { changes: 0 }; // not known until the transaction runs
        }
        // The number of rows a write touched: counted through a CTE with RETURNING.
        if (/^(insert|update|delete)\b/i.test(bound) && !/\breturning\b/i.test(bound)) {
          const n = this.psqlRun(`with t as (${bound} returning 1) select count(*) from t`);
          return { changes: Number(n.trim()) };
        }
        this.psqlRun(bound);
        return { changes: 0 };
      },
    };
  }

  exec(text: string): void {
    this.psqlRun(text);
  }

  /**
   * better-sqlite3's db.transaction(fn): the writes `fn` runs are queued and sent in one
   * BEGIN … COMMIT when it returns (all or nothing, and one psql for thousands of rows); their
   * `changes` read 0. Reads inside `fn` do not see its queued writes.
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args: A) => {
      this.pending = [];
      let result: R;
      let writes: string[];
      try {
        result = fn(...args);
      } finally {
        writes = this.pending;
        this.pending = null;
      }
      if (writes.length > 0) this.psqlRun(`begin;\n${writes.join('\n')}\ncommit;\n`);
      return result;
    };
  }

  pragma(): void {}

  close(): void {}
}
