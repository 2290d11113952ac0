import type { Caller } from '../services/caller';
import type { DavNode } from './context';
import { DAV_NS, escapeXml, type QName } from './xml';
import { contentTypeOf } from './content-types';

/** One resource of a PROPFIND answer: its node and the name it is listed under. */
export interface DavItem {
  node: DavNode;
  /** Its name in its folder ('' for the root). */
  name: string;
  href: string;
  isCollection: boolean;
}

/** A property value: its name and its content as XML (already escaped). */
export interface PropValue {
  name: QName;
  xml: string;
  /** Also sent for allprop (RFC 4918 §9.1: not every live property is; RFC 4331's quota ones are not). */
  inAllprop: boolean;
}

/**
 * A source of properties. PROPFIND asks every provider in DAV_PROPERTY_PROVIDERS once per page of
 * resources (batch look-ups per page, never per resource) for all the properties it has for each.
 * davlock adds lockdiscovery/supportedlock and the dead properties PROPPATCH stores.
 */
export interface PropertyProvider {
  read(caller: Caller, items: readonly DavItem[]): Promise<PropValue[][]>;
}

/** Per-page facts the live provider needs (content fingerprints, the caller's quota): see dav-props-live.ts. */
export interface LiveFacts {
  /** Content fingerprints by blob id. */
  fingerprints(caller: Caller, blobIds: readonly string[]): Promise<Map<string, string>>;
  /** The caller's quota and used bytes. */
  quota(caller: Caller): Promise<{ quota: number; used: number } | null>;
}

const dav = (local: string): QName => ({ ns: DAV_NS, local });

/** RFC 1123 date (getlastmodified). */
const httpDate = (ms: number): string => new Date(ms).toUTCString();
/** RFC 3339 date (creationdate). */
const isoDate = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The strong ETag of a file over WebDAV (PROPFIND's getetag, GET/HEAD's ETag, If-Range, If-Match and
 * the If header): the first 128 bits of its content fingerprint (SHA-256, hex), 34 characters with
 * the quotes. Strong because it changes whenever a byte does (two contents sharing 128 bits of
 * SHA-256 is not a case to plan for), stable because it depends on nothing but the content. Not the
 * whole 64-digit fingerprint the web app's download sends: clients copy ETags into fixed buffers —
 * litmus writes `(<token> [etag]) (Not <DAV:no-lock> [etag])` into 200 bytes, cut off with 66-character
 * tags — and 32 hex digits is what Apache, SabreDAV/Nextcloud (md5-sized) and their clients are used to.
 */
export const etagOf = (fingerprint: string): string => `"${fingerprint.slice(0, 32)}"`;

/** RFC 4918 §15 and RFC 4331 live properties of the file tree. */
export function liveProperties(facts: LiveFacts): PropertyProvider {
  return {
    async read(caller, items) {
      const blobIds = items.flatMap((i) => (i.node.kind === 'entry' && i.node.row.blob_id && i.node.row.is_dir !== 1 ? [i.node.row.blob_id] : []));
      const [prints, quota] = await Promise.all([facts.fingerprints(caller, blobIds), items.some((i) => i.isCollection) ? facts.quota(caller) : null]);
      return items.map((item) => {
        const out: PropValue[] = [];
        const add = (local: string, xml: string, inAllprop = true) => out.push({ name: dav(local), xml, inAllprop });
        add('displayname', escapeXml(item.name));
        add('resourcetype', item.isCollection ? '<D:collection/>' : '');
        const row = item.node.kind === 'entry' ? item.node.row : null;
        if (row) {
          add('creationdate', isoDate(Number(row.created_at)));
          add('getlastmodified', httpDate(Number(row.updated_at)));
        }
        if (row && !item.isCollection) {
          add('getcontentlength', String(Number(row.size)));
          add('getcontenttype', escapeXml(contentTypeOf(item.name)));
          const print = row.blob_id ? prints.get(row.blob_id) : undefined;
          if (print) add('getetag', escapeXml(etagOf(print)));
        }
        if (item.isCollection && quota) {
          add('quota-available-bytes', String(Math.max(0, quota.quota - quota.used)), false);
          add('quota-used-bytes', String(quota.used), false);
        }
        return out;
      });
    },
  };
}
