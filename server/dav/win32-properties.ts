import type { PropertyChange } from '../repositories/dav-property-repository';

/**
 * Windows Explorer's (WebClient's) own properties, namespace `urn:schemas-microsoft-com:`. After it
 * copies a file in, Explorer PROPPATCHes Win32CreationTime, Win32LastAccessTime, Win32LastModifiedTime
 * (RFC 1123 dates) and Win32FileAttributes (8 hex digits, FILE_ATTRIBUTE_* bits) and reports the copy
 * as failed unless each is answered 200. They are kept as dead properties (as SabreDAV/Nextcloud's
 * property storage keeps them) and PROPFIND returns them to Explorer, which shows the times it set.
 * They do not change the product's own times: `updated_at` is when the content last changed on the
 * server (the web app's 修改时间, the sync's change order), not a value a client may move back.
 */
export const MS_NS = 'urn:schemas-microsoft-com:';

const TIME_PROPERTIES = new Set(['Win32CreationTime', 'Win32LastAccessTime', 'Win32LastModifiedTime']);

/** The text of a stored value: its XML with the entities the XML writer uses undone. */
function textOf(valueXml: string): string {
  return valueXml.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&').trim();
}

/**
 * Whether a set of one of Explorer's properties carries a value of the kind Explorer writes: a date
 * for the times, 8 hex digits for the attributes. A value that is not is refused with 409 Conflict
 * (RFC 4918 §9.2.1: semantically inappropriate for the property) rather than stored for Explorer to
 * misread later. An empty value, any other property and every removal are not judged here.
 */
export function win32ValueFits(change: PropertyChange): boolean {
  if (change.ns !== MS_NS || change.valueXml === null) return true;
  const text = textOf(change.valueXml);
  // Empty: no value (stored as such; nothing for Explorer to misread).
  if (text === '') return true;
  if (TIME_PROPERTIES.has(change.name)) return !/[<>]/.test(text) && !Number.isNaN(Date.parse(text));
  if (change.name === 'Win32FileAttributes') return /^[0-9A-Fa-f]{8}$/.test(text);
  return true;
}
