import type { FilesTable } from '../db/schema';
import type { DavPropertyRepository } from '../repositories/dav-property-repository';
import type { DavLocks } from './locks/dav-locks';
import { activeLockXml, ancestorHref, SUPPORTED_LOCK_XML } from './locks/lock-xml';
import type { PropertyProvider, PropValue } from './properties';
import { DAV_NS } from './xml';

function rowOf(node: { kind: string; row?: FilesTable }): FilesTable | null {
  return node.kind === 'entry' && node.row ? node.row : null;
}

/**
 * DAV:lockdiscovery and DAV:supportedlock (RFC 4918 §15.8, §15.10) of the entries of a PROPFIND page:
 * one lock look-up for the page. Both are in allprop (§9.1). The root and the top folders take no locks.
 */
export function lockProperties(locks: DavLocks): PropertyProvider {
  return {
    async read(caller, items) {
      const rows = items.map((i) => rowOf(i.node)).filter((r): r is FilesTable => r !== null);
      const covering = await locks.covering(caller.tenantId, rows);
      const now = Date.now();
      return items.map((item) => {
        const row = rowOf(item.node);
        if (!row) return [];
        const active = (covering.get(row.id) ?? []).map((l) => activeLockXml(l, ancestorHref(item.href, l.levels), now)).join('');
        const out: PropValue[] = [
          { name: { ns: DAV_NS, local: 'lockdiscovery' }, xml: active, inAllprop: true },
          { name: { ns: DAV_NS, local: 'supportedlock' }, xml: SUPPORTED_LOCK_XML, inAllprop: true },
        ];
        return out;
      });
    },
  };
}

/** The dead properties PROPPATCH stored (all in allprop: RFC 4918 §9.1 lists every dead property). */
export function deadProperties(properties: DavPropertyRepository): PropertyProvider {
  return {
    async read(_caller, items) {
      const rows = items.map((i) => rowOf(i.node));
      const byEntry = await properties.ofEntries(rows.filter((r): r is FilesTable => r !== null).map((r) => r.id));
      return rows.map((row) => (row ? (byEntry.get(row.id) ?? []).map((p) => ({ name: { ns: p.ns, local: p.name }, xml: p.value_xml, inAllprop: true })) : []));
    },
  };
}
