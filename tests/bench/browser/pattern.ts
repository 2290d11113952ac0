/**
 * Deterministic bench data, generated the same way in Chromium and in Node so the browser's digests
 * can be checked against node:crypto without moving hundreds of MiB into the page: chunk `index` is a
 * xorshift32 stream seeded by its index. (Content does not change SHA-256's speed; it only has to be
 * distinct per chunk so no digest can be answered from a cache.)
 */
export function fillChunk(into: Uint8Array, index: number): void {
  const words = new Uint32Array(into.buffer, into.byteOffset, into.byteLength >>> 2);
  let x = (index + 1) * 0x9e3779b1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
}
