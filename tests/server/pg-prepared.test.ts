/**
 * Named prepared statements on PostgreSQL (server/db/pg-prepared.ts): a query shape is parsed once per
 * connection and its statement reused, at most N kept per connection, and a statement whose table
 * changed its columns is prepared again instead of failing. Read from PostgreSQL's own view of the
 * session (pg_prepared_statements), on a pool of one connection. PostgreSQL only.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planEachTime } from '../../server/db/pg-prepared';
import { createPostgresDialect } from '../../server/db/postgres';
import { dropTestDatabase, emptyTestDbUrl, onPostgres } from '../support/test-database';

interface Tables {
  things: { id: number; name: string; extra?: string | null };
}

interface Prepared {
  statement: string;
  generic_plans: number;
  custom_plans: number;
}

let dataDir: string;
let url: string;
const opened: Array<Kysely<Tables>> = [];

/** A Kysely on one connection, so every statement below meets the same session's prepared ones. */
function open(preparedStatements?: number): Kysely<Tables> {
  const db = new Kysely<Tables>({ dialect: createPostgresDialect(url, { max: 1, preparedStatements }) });
  opened.push(db);
  return db;
}

/** The session's named statements, except the one reading them. */
async function prepared(db: Kysely<Tables>): Promise<Prepared[]> {
  const { rows } = await sql<Prepared>`select statement, generic_plans, custom_plans from pg_prepared_statements where statement not like '%pg_prepared_statements%'`.execute(db);
  return rows;
}

const byName = (db: Kysely<Tables>, name: string) => db.selectFrom('things').select(['id', 'name']).where('name', '=', name).execute();

describe.skipIf(!onPostgres())('PostgreSQL prepared statements (PG_PREPARED_STATEMENTS)', () => {
  beforeEach(async () => {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'pg-prepared-'));
    url = await emptyTestDbUrl(dataDir);
    const db = open(0);
    await sql`create table things (id integer primary key, name text not null)`.execute(db);
    await db.insertInto('things').values([{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 3, name: 'c' }]).execute();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.destroy()));
    await dropTestDatabase(dataDir);
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('parses a query shape once per connection and runs its statement again with other values', async () => {
    const db = open();
    for (const name of ['a', 'b', 'c', 'a', 'b', 'c', 'x']) {
      expect((await byName(db, name)).map((r) => r.name)).toEqual(name === 'x' ? [] : [name]);
    }
    const statements = await prepared(db);
    const shape = statements.filter((s) => /from "things" where "name" = \$1/.test(s.statement));
    expect(shape).toHaveLength(1);
    // Seven executions of one statement, each with a plan PostgreSQL kept or made for it.
    expect(Number(shape[0]!.generic_plans) + Number(shape[0]!.custom_plans)).toBe(7);
  });

  it('keeps at most N statements per connection, the least recently used closed first, and answers every shape right', async () => {
    const db = open(3);
    const shapes = [
      () => db.selectFrom('things').select('id').where('id', '=', 1).execute(),
      () => db.selectFrom('things').select('name').where('id', '=', 2).execute(),
      () => db.selectFrom('things').select(['id', 'name']).where('id', 'in', [1, 3]).orderBy('id').execute(),
      () => db.selectFrom('things').select('id').where('id', 'in', [1, 2, 3]).orderBy('id').execute(),
      () => db.selectFrom('things').select(sql<number>`count(*)`.as('n')).execute(),
    ];
    const expected = [[{ id: 1 }], [{ name: 'b' }], [{ id: 1, name: 'a' }, { id: 3, name: 'c' }], [{ id: 1 }, { id: 2 }, { id: 3 }], [{ n: 3 }]];
    for (let round = 0; round < 3; round++) {
      for (const [i, shape] of shapes.entries()) expect(await shape()).toEqual(expected[i]);
    }
    // The reading query takes a place too: at most 3 in all, 2 of the shapes.
    expect((await prepared(db)).length).toBeLessThanOrEqual(2);
  });

  it('a query marked planEachTime stays unnamed (planned for its values every time)', async () => {
    const db = open();
    for (const name of ['a', 'b']) expect(await planEachTime(db.selectFrom('things').select('id').where('name', '=', name)).execute()).toHaveLength(1);
    expect(await prepared(db)).toEqual([]);
  });

  it('PG_PREPARED_STATEMENTS=0: every query unnamed', async () => {
    const db = open(0);
    for (const name of ['a', 'b']) await byName(db, name);
    expect(await prepared(db)).toEqual([]);
  });

  it('a table whose columns changed under a kept statement: prepared again (outside a transaction), the error once inside one', async () => {
    const db = open();
    const all = () => db.selectFrom('things').selectAll().where('id', '=', 1).execute();
    expect(await all()).toEqual([{ id: 1, name: 'a' }]);
    // As a migration run by another server process would.
    const other = open(0);
    await sql`alter table things add column extra text`.execute(other);
    expect(await all()).toEqual([{ id: 1, name: 'a', extra: null }]);

    await sql`alter table things drop column extra`.execute(other);
    const inTransaction = db.transaction().execute((trx) => trx.selectFrom('things').selectAll().where('id', '=', 1).execute());
    await expect(inTransaction).rejects.toMatchObject({ code: '0A000' });
    // The statement was closed with it: the next use prepares it again.
    expect(await db.transaction().execute((trx) => trx.selectFrom('things').selectAll().where('id', '=', 1).execute())).toEqual([{ id: 1, name: 'a' }]);
  });
});
