import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../../server/db/statement-cache';

interface Tables {
  items: { id: number; name: string };
}

const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

/** A real SQLite database in memory, its `prepare` counted. */
function counted() {
  const sqlite = new Database(':memory:');
  opened.push(sqlite);
  const prepared: string[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof sqlite.prepare;
  sqlite.exec('create table items (id integer primary key, name text not null)');
  return { sqlite, prepared };
}

describe('statement cache (Kysely over better-sqlite3)', () => {
  it('prepares a query shape once and runs it with each call’s parameters', async () => {
    const { sqlite, prepared } = counted();
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    for (let i = 1; i <= 5; i++) await db.insertInto('items').values({ id: i, name: `n${i}` }).execute();
    const names = [];
    for (let i = 1; i <= 5; i++) names.push((await db.selectFrom('items').select('name').where('id', '=', i).executeTakeFirstOrThrow()).name);
    expect(names).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    // One insert shape, one select shape.
    expect(prepared).toHaveLength(2);
  });

  it('keeps at most `size` shapes, dropping the least recently used', () => {
    const { sqlite, prepared } = counted();
    const cached = withStatementCache(sqlite, 2);
    const a = 'select 1 as v';
    const b = 'select 2 as v';
    const c = 'select 3 as v';
    cached.prepare(a);
    cached.prepare(b);
    cached.prepare(a); // a is now the most recent
    cached.prepare(c); // evicts b
    cached.prepare(a);
    cached.prepare(b);
    expect(prepared).toEqual([a, b, c, b]);
  });

  it('sees a table changed after the statement was prepared', async () => {
    const { sqlite } = counted();
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    await db.insertInto('items').values({ id: 1, name: 'a' }).execute();
    const select = () => db.selectFrom('items').selectAll().execute();
    expect(await select()).toEqual([{ id: 1, name: 'a' }]);
    sqlite.exec("alter table items add column note text default 'n'");
    expect(await select()).toEqual([{ id: 1, name: 'a', note: 'n' }]);
  });
});
