/**
 * What ties an unhashed streaming session (upload-runner.ts, streamingDigests 'server') to the bytes it
 * was started with: the source's size and lastModified, kept in the item's record.
 */
import type { UploadPatch, UploadRecord } from '../queue/types';

/** The fields that tie an item to a server session, cleared: the next attempt opens a new one. */
export const DROPPED_SESSION: UploadPatch = { uploadId: null, streamingSession: false, serverDigests: false, chunksDone: [], bytesDone: 0, chunkDigests: null, fingerprint: null };

/** The source's modification time as the browser (or the Node file source) reports it; else the record's. */
export function stampOf(file: Blob, item: UploadRecord): number {
  return typeof (file as Partial<File>).lastModified === 'number' ? (file as File).lastModified : item.lastModified;
}

/**
 * Whether the bytes behind an unhashed session may have changed since it started. A session whose
 * chunks carried digests is checked at the merge: the digests of the file as it is now must agree with
 * every stored chunk (FINGERPRINT_MISMATCH drops the session). An unhashed session has no such check —
 * the server makes the fingerprint from whatever it stored — so chunks sent before a change and after
 * it would merge into a file that never existed. Size and lastModified are what a File offers without
 * reading it; the record keeps them from the session's start (Chromium also refuses to read a stored
 * File whose disk file changed, so a changed file comes back re-picked, with its new lastModified).
 */
export function sourceChanged(item: UploadRecord, file: Blob): boolean {
  return file.size !== item.size || stampOf(file, item) !== item.lastModified;
}
