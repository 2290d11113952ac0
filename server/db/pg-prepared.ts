/**
 * Named prepared statements on PostgreSQL, kept per connection, by SQL text.
 *
 * Kysely's PostgresDialect sends every query as an unnamed statement, so PostgreSQL parses and plans
 * it on every execution: of a folder list's 5 statements, parse + plan took ~0.35 ms each against
 * ~0.05 ms of execution (log_min_duration_statement, 15), and PostgreSQL's CPU per list was 1.3–1.6 ms
 * of the request's ~3 ms. A named statement is parsed once per connection; PostgreSQL keeps its
 * plan (a generic one once it costs no more than the custom plans of its first 5 executions:
 * plan_cache_mode auto), so later executions only bind and run. The SQL of a query shape is the same
 * text every time (values are parameters), as for SQLite's statement cache (statement-cache.ts).
 *
 * Bounded: at most `size` statements per connection; the least recently used one is closed (a
 * protocol Close, sent ahead of the next query: no extra round trip) when another shape needs its
 * place. Shapes differ by the length of `in (…)` lists, so a connection sees more shapes than the
 * code has queries.
 *
 * A plan PostgreSQL cannot reuse because a table's columns changed under it (`select *` after a
 * migration, possibly run by another process) fails with 0A000 "cached plan must not change result
 * type": the statement is closed, and the query runs again once when no transaction was open (in a
 * transaction the error ends it, as PostgreSQL aborts the transaction).
 *
 * A generic plan is the same for every value, and PostgreSQL may keep one that reads far more than
 * the values' own plan would: at 100k rows (tests/server/postgres-plans.test.ts) the recycle bin's
 * walked every user's deleted entries by date (files_trash_age) instead of the user's own
 * (files_trash), and keyword search walked the tenant's names in order instead of reading the trigram
 * index. Such queries end with `planEachTime` and stay unnamed: planned for their values each time.
 *
 * Off with PG_PREPARED_STATEMENTS=0 (e.g. behind a pooler in transaction mode that does not keep
 * named statements).
 */
import type pg from 'pg';
import { sql, type Expression, type PostgresCursor, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from 'kysely';

/** Statements kept per connection (PG_PREPARED_STATEMENTS; 0 = none, every query unnamed). */
export const PREPARED_STATEMENTS_PER_CONNECTION = 100;

/** Statements worth naming: the data ones. Transaction control and DDL stay unnamed (cheap to parse, run rarely). */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const BEGIN = /^\s*(begin|start transaction)\b/i;
const END = /^\s*(commit|rollback|end|abort)\s*$/i;

/** The end of the SQL of a query planned for its values at every execution (never a named statement). */
export const PLAN_EACH_TIME = '/* plan each time */';

/** Marks a query to be planned for its values at every execution (see the header); nothing changes on SQLite. */
export function planEachTime<Q extends { modifyEnd(modifier: Expression<unknown>): Q }>(query: Q): Q {
  return query.modifyEnd(sql.raw(PLAN_EACH_TIME));
}

/** What of `pg`'s connection we use: its record of parsed names, and its Close message. */
interface PgConnection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  close(msg: { type: 'S'; name: string }): void;
}

const isResultTypeChange = (err: unknown): boolean =>
  (err as { code?: unknown } | null)?.code === '0A000' && /cached plan must not change result type/.test(String((err as Error).message));

/** One connection's statements: SQL text → name, least recently used first. */
export class PreparedStatements {
  private readonly names = new Map<string, string>();
  private counter = 0;
  private inTransaction = false;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly size: number,
  ) {}

  private get connection(): PgConnection {
    return (this.client as unknown as { connection: PgConnection }).connection;
  }

  async query<R>(text: string, values: unknown[]): Promise<PostgresQueryResult<R>> {
    if (BEGIN.test(text)) this.inTransaction = true;
    else if (END.test(text)) this.inTransaction = false;
    if (this.size <= 0 || !PREPARABLE.test(text) || text.endsWith(PLAN_EACH_TIME)) return this.client.query(text, values) as unknown as Promise<PostgresQueryResult<R>>;
    const name = this.nameFor(text);
    try {
      return (await this.client.query({ name, text, values })) as unknown as PostgresQueryResult<R>;
    } catch (err) {
      // (A statement whose Parse failed keeps its name here: `pg` parses it again at its next use.)
      if (!isResultTypeChange(err)) throw err;
      this.forget(text);
      if (this.inTransaction) throw err;
      return (await this.client.query({ name: this.nameFor(text), text, values })) as unknown as PostgresQueryResult<R>;
    }
  }

  private nameFor(text: string): string {
    const known = this.names.get(text);
    if (known !== undefined) {
      // Most recently used goes last.
      this.names.delete(text);
      this.names.set(text, known);
      return known;
    }
    while (this.names.size >= this.size) this.forget(this.names.keys().next().value as string);
    const name = `drive_${++this.counter}`;
    this.names.set(text, name);
    return name;
  }

  /** Closes the statement of `text` on the server (pipelined before the next query) and forgets it. */
  private forget(text: string): void {
    const name = this.names.get(text);
    if (name === undefined) return;
    this.names.delete(text);
    const connection = this.connection;
    if (name in connection.parsedStatements || name in connection.submittedNamedStatements) connection.close({ type: 'S', name });
    delete connection.parsedStatements[name];
    delete connection.submittedNamedStatements[name];
  }
}

/**
 * The pool as Kysely's PostgresDialect sees it, each connection answering queries through its
 * PreparedStatements (kept with the connection: a connection the pool drops takes its statements along).
 */
export function withPreparedStatements(pool: pg.Pool, size = PREPARED_STATEMENTS_PER_CONNECTION): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        const prepared = new PreparedStatements(client, size);
        wrapped = {
          query: ((sqlOrCursor: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>) =>
            typeof sqlOrCursor === 'string'
              ? prepared.query(sqlOrCursor, (parameters ?? []) as unknown[])
              : client.query(sqlOrCursor as unknown as pg.Submittable)) as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}
