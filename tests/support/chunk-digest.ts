/** The protocol's chunk digest (common/transfer/chunk-digest.ts) with Node's SHA-256, for tests and benches. */
import { createHash } from 'node:crypto';
import { chunkDigestSync } from '../../common/transfer/chunk-digest';
import { fingerprintInput } from '../../common/transfer/protocol';

export const chunkDigestHex = (chunk: Uint8Array): string => chunkDigestSync(chunk, (data) => createHash('sha256').update(data).digest());

/** The file fingerprint (hex) a client announces for these chunk digests. */
export const fingerprintHex = (digests: readonly string[]): string => createHash('sha256').update(fingerprintInput(digests)).digest('hex');
