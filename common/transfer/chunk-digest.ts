/**
 * A chunk's digest: SHA-256 over the SHA-256 digests of its leaves, the chunk's consecutive pieces of
 * DIGEST_LEAF_BYTES (the last one shorter; an empty chunk has one empty leaf). The file fingerprint
 * stays SHA-256 over the chunk digests (protocol.ts).
 *
 * Why leaves: in Chromium, WebCrypto digests an input of 1 MiB or more several times slower than one
 * below it — in a hash worker on this 2-core machine, 16 MiB inputs went at 58–158 MB/s and 512 KiB
 * inputs at 756–980 MB/s, against ~1,600 MB/s native (and WebCrypto has no streaming, so a chunk could
 * not be fed to it in pieces). Hashing dominated the browser's CPU during an upload. Leaves also let a
 * chunk's pieces be digested in parallel. The server, Node clients and tests compute the same tree.
 */

/** Leaf size: below the size where Chromium's WebCrypto digest slows down, well above per-call costs. */
export const DIGEST_LEAF_BYTES = 512 * 1024;

/** Leaves of a chunk of `length` bytes, as [start, end) offsets inside the chunk. */
export function leafRanges(length: number): Array<[number, number]> {
  if (length === 0) return [[0, 0]];
  const ranges: Array<[number, number]> = [];
  for (let start = 0; start < length; start += DIGEST_LEAF_BYTES) ranges.push([start, Math.min(length, start + DIGEST_LEAF_BYTES)]);
  return ranges;
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The chunk digest (hex) with a synchronous SHA-256 returning the raw 32 bytes (Node's crypto). */
export function chunkDigestSync(chunk: Uint8Array, sha256: (data: Uint8Array) => Uint8Array): string {
  const ranges = leafRanges(chunk.length);
  const leaves = new Uint8Array(ranges.length * 32);
  ranges.forEach(([start, end], i) => leaves.set(sha256(chunk.subarray(start, end)), i * 32));
  return hex(sha256(leaves));
}

/**
 * The chunk digest (hex) with an asynchronous SHA-256 (WebCrypto, hash-wasm): the leaves are digested
 * concurrently (WebCrypto runs them off the calling thread).
 */
export async function chunkDigestAsync(chunk: Uint8Array<ArrayBuffer>, sha256: (data: Uint8Array<ArrayBuffer>) => Promise<Uint8Array>): Promise<string> {
  const ranges = leafRanges(chunk.length);
  const digests = await Promise.all(ranges.map(([start, end]) => sha256(chunk.subarray(start, end))));
  const leaves = new Uint8Array(ranges.length * 32);
  digests.forEach((d, i) => leaves.set(d, i * 32));
  return hex(await sha256(leaves));
}

/**
 * Computes a chunk's digest from its bytes as they arrive, in order, in pieces of any size (the
 * server's streaming check, a resume that hashes its stored prefix first). `leafHasher` makes an
 * incremental SHA-256 (Node: createHash('sha256')).
 */
export class StreamingChunkDigest {
  private leaf: { update(data: Uint8Array): unknown; digest(): Uint8Array };
  private leafFill = 0;
  private readonly leaves: Uint8Array[] = [];

  constructor(private readonly newHash: () => { update(data: Uint8Array): unknown; digest(): Uint8Array }) {
    this.leaf = newHash();
  }

  update(data: Uint8Array): void {
    let offset = 0;
    while (offset < data.length) {
      const take = Math.min(DIGEST_LEAF_BYTES - this.leafFill, data.length - offset);
      this.leaf.update(data.subarray(offset, offset + take));
      this.leafFill += take;
      offset += take;
      if (this.leafFill === DIGEST_LEAF_BYTES) {
        this.leaves.push(this.leaf.digest());
        this.leaf = this.newHash();
        this.leafFill = 0;
      }
    }
  }

  /** Hex digest of everything added (a last partial leaf, or one empty leaf for no bytes at all). */
  digest(): string {
    if (this.leafFill > 0 || this.leaves.length === 0) this.leaves.push(this.leaf.digest());
    const top = this.newHash();
    for (const d of this.leaves) top.update(d);
    return hex(top.digest());
  }
}

/**
 * The chunk digests of a whole content fed in pieces of any size, cut at `chunkSize` (a stored blob read
 * back, a buffer in memory): one StreamingChunkDigest per chunk. An empty content is one empty chunk.
 */
export class StreamingContentDigests {
  private current: StreamingChunkDigest;
  private fill = 0;
  private readonly digests: string[] = [];

  constructor(
    private readonly chunkSize: number,
    private readonly newHash: () => { update(data: Uint8Array): unknown; digest(): Uint8Array },
  ) {
    this.current = new StreamingChunkDigest(newHash);
  }

  update(data: Uint8Array): this {
    let offset = 0;
    while (offset < data.length) {
      const take = Math.min(this.chunkSize - this.fill, data.length - offset);
      this.current.update(data.subarray(offset, offset + take));
      this.fill += take;
      offset += take;
      if (this.fill === this.chunkSize) {
        this.digests.push(this.current.digest());
        this.current = new StreamingChunkDigest(this.newHash);
        this.fill = 0;
      }
    }
    return this;
  }

  /** Every chunk's digest, in order: the last, shorter chunk included. */
  finish(): string[] {
    if (this.fill > 0 || this.digests.length === 0) this.digests.push(this.current.digest());
    this.fill = 0;
    return this.digests;
  }
}

/**
 * StreamingChunkDigest as plain CommonJS source, for worker threads that run without a TypeScript
 * loader (the server's hash threads, the Node client's hash pool). Needs `createHash` in scope;
 * defines `chunkDigestState()`, `chunkDigestUpdate(state, bytes)` and `chunkDigestHex(state)`.
 * tests/unit/common/chunk-digest.test.ts holds it to the class above.
 */
export const CHUNK_DIGEST_CJS = `
const CHUNK_DIGEST_LEAF = ${DIGEST_LEAF_BYTES};
function chunkDigestState() { return { leaf: createHash('sha256'), fill: 0, leaves: [] }; }
function chunkDigestUpdate(st, data) {
  let offset = 0;
  while (offset < data.length) {
    const take = Math.min(CHUNK_DIGEST_LEAF - st.fill, data.length - offset);
    st.leaf.update(data.subarray(offset, offset + take));
    st.fill += take;
    offset += take;
    if (st.fill === CHUNK_DIGEST_LEAF) {
      st.leaves.push(st.leaf.digest());
      st.leaf = createHash('sha256');
      st.fill = 0;
    }
  }
}
function chunkDigestHex(st) {
  if (st.fill > 0 || st.leaves.length === 0) st.leaves.push(st.leaf.digest());
  const top = createHash('sha256');
  for (const d of st.leaves) top.update(d);
  return top.digest('hex');
}
`;
