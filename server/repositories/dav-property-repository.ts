import type { Db } from '../db/database';
import type { DavPropertiesTable } from '../db/schema';

export type DeadProperty = Omit<DavPropertiesTable, 'entry_id'>;

/** A change PROPPATCH asks for: set (value XML) or remove (null). */
export interface PropertyChange {
  ns: string;
  name: string;
  valueXml: string | null;
}

/**
 * WebDAV dead properties (migration 0096): rows cascade with their entry (the recycle bin's purge);
 * a copied tree takes its sources' along (TreeRepository.insertTree); a moved entry keeps its id and them.
 */
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
}
