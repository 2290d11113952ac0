import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { DavPropertiesTable } from '../db/schema';

export type DeadProperty = Omit<DavPropertiesTable, 'entry_id'>;

/** A change PROPPATCH asks for: set (value XML) or remove (null). */
export interface PropertyChange {
  ns: string;
  name: string;
  valueXml: string | null;
}

/** WebDAV dead properties (migration 0096): rows cascade with their entry (the recycle bin's purge). */
export class DavPropertyRepository {
  constructor(private readonly db: Db) {}

  /** All dead properties of these entries, by entry id. */
  async ofEntries(entryIds: readonly string[]): Promise<Map<string, DeadProperty[]>> {
    const out = new Map<string, DeadProperty[]>();
    for (let i = 0; i < entryIds.length; i += 500) {
      const part = entryIds.slice(i, i + 500);
      const rows = await this.db.selectFrom('dav_properties').selectAll().where('entry_id', 'in', part).orderBy('entry_id').orderBy('ns').orderBy('name').execute();
      for (const r of rows) {
        const list = out.get(r.entry_id) ?? [];
        list.push({ ns: r.ns, name: r.name, value_xml: r.value_xml });
        out.set(r.entry_id, list);
      }
    }
    return out;
  }

  /** Applies every change in one transaction: all or none. */
  async apply(entryId: string, changes: readonly PropertyChange[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const c of changes) {
        await tx.deleteFrom('dav_properties').where('entry_id', '=', entryId).where('ns', '=', c.ns).where('name', '=', c.name).execute();
        if (c.valueXml !== null) await tx.insertInto('dav_properties').values({ entry_id: entryId, ns: c.ns, name: c.name, value_xml: c.valueXml }).execute();
      }
    });
  }

  /**
   * Copies the dead properties of copied entries to their copies (COPY), `pairs` as [source, copy];
   * a copy's own properties (an overwritten destination's are gone with it) are replaced.
   */
  async copy(pairs: ReadonlyArray<readonly [string, string]>): Promise<void> {
    if (pairs.length === 0) return;
    await this.db.transaction().execute(async (tx) => {
      for (let i = 0; i < pairs.length; i += 200) {
        const part = pairs.slice(i, i + 200);
        await tx.deleteFrom('dav_properties').where('entry_id', 'in', part.map(([, to]) => to)).execute();
        // column1 = source, column2 = copy: the names both engines give a VALUES list's columns.
        const values = sql.join(part.map(([from, to]) => sql`(${from}, ${to})`));
        await sql`insert into dav_properties (entry_id, ns, name, value_xml)
          select pairs.column2, p.ns, p.name, p.value_xml
          from (values ${values}) as pairs join dav_properties p on p.entry_id = pairs.column1`.execute(tx);
      }
    });
  }
}
