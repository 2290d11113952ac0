/**
 * Contents of the simulation: every write by a user makes a new, unique content (its id leads the
 * bytes), so the oracle can follow each one wherever the engine copies it. Fingerprints are the
 * protocol's block list (common/transfer/protocol.ts) over small chunks, so files span several.
 */
import { createHash } from 'node:crypto';
import { fingerprintInput } from '../../../common/transfer/protocol';
import { chunkDigestHex } from '../../support/chunk-digest';

export const SIM_CHUNK_SIZE = 64;

export function digestsOf(bytes: Uint8Array, chunkSize = SIM_CHUNK_SIZE): { chunkDigests: string[]; fingerprint: string } {
  const chunkDigests: string[] = [];
  const count = bytes.length === 0 ? 1 : Math.ceil(bytes.length / chunkSize);
  for (let i = 0; i < count; i++) {
    chunkDigests.push(chunkDigestHex(bytes.subarray(i * chunkSize, Math.min(bytes.length, (i + 1) * chunkSize))));
  }
  return { chunkDigests, fingerprint: createHash('sha256').update(fingerprintInput(chunkDigests)).digest('hex') };
}

export function fingerprintOf(bytes: Uint8Array): string {
  return digestsOf(bytes).fingerprint;
}

/** `«c12»` then filler up to `size` bytes. */
export function makeContent(id: number, size: number): Buffer {
  const head = `«c${id}»`;
  const body = Buffer.alloc(Math.max(size, Buffer.byteLength(head)), 'x');
  body.write(head, 0, 'utf8');
  return body;
}

/** The content id a file holds (-1 when it is not a simulation content). */
export function contentIdOf(bytes: Uint8Array): number {
  const text = Buffer.from(bytes.subarray(0, 16)).toString('utf8');
  const m = /^«c(\d+)»/.exec(text);
  return m ? Number(m[1]) : -1;
}
