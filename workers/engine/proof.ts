/**
 * Proof of ownership for second upload (common/transfer/second-upload.ts): HMAC-SHA256 keyed by the
 * challenge nonce over the challenged byte ranges, concatenated in the order given. Only those ranges
 * are read (a few × 64 KiB). WebCrypto where present; hash-wasm's HMAC where crypto.subtle is missing.
 */
import { createHMAC, createSHA256 } from 'hash-wasm';
import { bytesToHex, hexToBytes } from '../../common/transfer/protocol';
import { proofMessageLength, type ByteRange } from '../../common/transfer/second-upload';
import { readRange, type ByteSource } from '../hash/sha256';

/** Minimal WebCrypto surface for HMAC, so tests can pass `null` to force the fallback. */
export type HmacSubtle = Pick<SubtleCrypto, 'importKey' | 'sign'>;

export async function proofMessage(source: ByteSource, ranges: readonly ByteRange[]): Promise<Uint8Array<ArrayBuffer>> {
  const message = new Uint8Array(proofMessageLength(ranges));
  let offset = 0;
  for (const range of ranges) {
    if (range.start < 0 || range.end > source.size || range.end < range.start) throw new RangeError('challenge range outside the file');
    message.set(new Uint8Array(await readRange(source, range.start, range.end)), offset);
    offset += range.end - range.start;
  }
  return message;
}

export async function hmacSha256Hex(keyHex: string, message: Uint8Array<ArrayBuffer>, subtle: HmacSubtle | null = globalThis.crypto?.subtle ?? null): Promise<string> {
  const key = hexToBytes(keyHex) as Uint8Array<ArrayBuffer>;
  if (subtle) {
    const cryptoKey = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return bytesToHex(new Uint8Array(await subtle.sign('HMAC', cryptoKey, message)));
  }
  const hmac = await createHMAC(createSHA256(), key);
  hmac.init();
  hmac.update(message);
  return hmac.digest('hex');
}

/** The `hmac` of a SecondUploadProof for `source` and a challenge. */
export async function computeProof(source: ByteSource, nonceHex: string, ranges: readonly ByteRange[], subtle?: HmacSubtle | null): Promise<string> {
  return hmacSha256Hex(nonceHex, await proofMessage(source, ranges), subtle);
}
