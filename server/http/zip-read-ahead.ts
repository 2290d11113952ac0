import type { ZipMember } from './zip-writer';

/**
 * How far a ZIP reads ahead of the entry it writes: at most `entries` members looked at ahead, at most
 * `bytes` read into memory for them, and only members of at most `entryBytes` (read whole). Larger
 * members stream in their turn, as before: a stream opened early and left unread would hold a socket
 * idle (an object store times it out) and buffers nobody bounds.
 */
export interface ZipReadAhead {
  entries: number;
  bytes: number;
  entryBytes: number;
}

/**
 * Reading 1,000 small objects one after another costs a store round trip each (~50 ms on radosgw with
 * Nagle's algorithm, ~7 ms without): 16 in flight hide most of it, 8 MiB bounds what waits in memory.
 */
export const ZIP_READ_AHEAD: ZipReadAhead = { entries: 16, bytes: 8 * 1024 * 1024, entryBytes: 1024 * 1024 };

/** A member ahead of the writer, and its bytes once (or while) they are read ahead. */
interface Slot {
  member: ZipMember;
  /** Bytes reserved in the budget for it (its size) while it is read ahead or waits; 0 when streamed in turn. */
  reserved: number;
  fetched?: Promise<Buffer[]>;
}

/** Reads one member whole (it is small), failing as soon as it holds more bytes than its size. */
async function readWhole(member: ZipMember, signal: AbortSignal): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of member.open!(signal)) {
    signal.throwIfAborted();
    const buf = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
    size += buf.length;
    if (size > member.size) throw new Error(`zip member ${member.name}: more than its ${member.size} bytes`);
    pieces.push(buf);
  }
  return pieces;
}

/**
 * The members in their order, each small one's bytes read ahead while the ones before it are written
 * (bounded by `limits`); its `open` then hands the bytes already read. The output is the same as
 * without read-ahead, byte for byte. Nothing is opened once `signal` is aborted or the consumer stops
 * (returns or throws): then every read in flight is aborted through the signal `open` receives.
 */
export async function* readingAhead(members: AsyncIterable<ZipMember> | Iterable<ZipMember>, limits: ZipReadAhead, signal?: AbortSignal): AsyncGenerator<ZipMember> {
  const stop = new AbortController();
  const reading = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const source = Symbol.asyncIterator in members ? members[Symbol.asyncIterator]() : (members as Iterable<ZipMember>)[Symbol.iterator]();
  const window: Slot[] = [];
  let reserved = 0;
  let exhausted = false;

  const eligible = (m: ZipMember) => !m.isDir && m.open !== undefined && m.size > 0 && m.size <= limits.entryBytes;
  /** Starts reading the waiting small members in order while the budget allows (never one past a member that does not fit). */
  const startReads = () => {
    for (const slot of window) {
      if (reading.aborted) return;
      if (slot.fetched || !eligible(slot.member)) continue;
      if (reserved + slot.member.size > limits.bytes) return;
      slot.reserved = slot.member.size;
      reserved += slot.reserved;
      slot.fetched = readWhole(slot.member, reading);
      slot.fetched.catch(() => undefined); // surfaces when the writer reaches the member
    }
  };
  const fill = async () => {
    while (!exhausted && window.length < limits.entries + 1) {
      const next = await source.next();
      if (next.done) exhausted = true;
      else window.push({ member: next.value, reserved: 0 });
    }
  };

  try {
    for (;;) {
      reading.throwIfAborted();
      await fill();
      startReads();
      const slot = window.shift();
      if (!slot) return;
      const { member, fetched } = slot;
      yield fetched
        ? {
            ...member,
            open: () =>
              (async function* () {
                yield* await fetched;
              })(),
          }
        : member;
      // The writer asks for the next member: this one is written, its bytes can go.
      reserved -= slot.reserved;
    }
  } finally {
    stop.abort();
    await Promise.allSettled(window.map((s) => s.fetched));
    if (!exhausted) await source.return?.();
  }
}
