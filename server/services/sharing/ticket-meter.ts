import { ticketResumeAllowance } from '../../../common/api/sharing';
import type { ShareLinkTicketsTable } from '../../db/schema';
import type { LinkRepository } from '../../repositories/link-repository';

/** One response of a ticket, as it sends: what it took, what it sent, how it ended. */
export interface TicketLease {
  /** Bytes handed to the response (call as they go; an upper bound of what reached the network). */
  sent(bytes: number): void;
  /** The response is over: `finished` when it ended normally. Gives back what was not sent. */
  end(finished: boolean): Promise<void>;
}

/** A response of a ticket being sent right now, in this process. */
interface LiveResponse {
  start: number;
  length: number;
  counted: number;
  stop: () => void;
  ended: Promise<void>;
}

/**
 * The one copy a link ticket gives (rules in common/api/sharing.ts, "download tickets"). Every
 * response takes its bytes from the ticket before its first byte (LinkRepository.reserveBytes:
 * atomic, so parallel requests share the copy) and gives back what it did not send when it ends.
 * A request that continues where a response still being sent has got to (a browser's resume after
 * a network change, while the old connection hangs) stops that response first, so the old one's
 * unsent bytes and its span in flight count for the resume rather than against it.
 *
 * The responses being sent are known to this process only: with several server processes the bound
 * holds all the same (the database decides), but a resume that reaches another process than the
 * hanging response waits until that connection breaks (until then it is refused, 416).
 *
 * Which bytes a caller may have at all is not decided here (the link and the byte decision did that
 * when the ticket was issued and are checked on every request); this only meters them.
 */
export class TicketMeter {
  private readonly live = new Map<string, Set<LiveResponse>>();

  constructor(private readonly links: LinkRepository) {}

  /** The ticket's counters as they stand (null when unknown). */
  async state(hash: string): Promise<ShareLinkTicketsTable | null> {
    return (await this.links.findTicket(hash)) ?? null;
  }

  /**
   * Would `length` bytes from `start` of a copy of `size` be served now (HEAD: nothing is taken)?
   * Counts a resume's credit as a GET would get it.
   */
  async wouldServe(hash: string, start: number, length: number, size: number): Promise<boolean> {
    const row = await this.links.findTicket(hash);
    if (!row) return false;
    if (length === 0) return row.used_at === null;
    let left = size - Number(row.served);
    const cutStart = row.cut_start === null ? null : Number(row.cut_start);
    const cutEnd = row.cut_end === null ? null : Number(row.cut_end);
    if (cutStart !== null && cutEnd !== null && cutStart <= start && start < cutEnd) {
      left += Math.max(0, Math.min(cutEnd - start, ticketResumeAllowance(size) - Number(row.credited)));
    }
    return length <= left;
  }

  /** Takes the whole of a ticket whose content has no fixed length (a ZIP): once. */
  takeWhole(hash: string, now: number): Promise<boolean> {
    return this.links.useTicket(hash, now);
  }

  /**
   * Takes `length` bytes from `start` of a copy of `size` bytes for a response that `stop` can
   * break off; null when the ticket has less left. An empty copy (size 0) is given once.
   */
  async take(hash: string, r: { start: number; length: number; size: number; stop: () => void; now: number }): Promise<TicketLease | null> {
    await this.supersede(hash, r.start);
    const taken =
      r.length === 0
        ? await this.links.useTicket(hash, r.now)
        : await this.links.reserveBytes(hash, { start: r.start, length: r.length, size: r.size, allowance: ticketResumeAllowance(r.size), now: r.now });
    if (!taken) return null;
    let settle!: () => void;
    const response: LiveResponse = { start: r.start, length: r.length, counted: 0, stop: r.stop, ended: new Promise<void>((resolve) => (settle = resolve)) };
    const set = this.live.get(hash) ?? this.live.set(hash, new Set()).get(hash)!;
    set.add(response);
    let over = false;
    return {
      sent: (bytes) => {
        response.counted += bytes;
      },
      end: async (finished) => {
        if (over) return;
        over = true;
        try {
          const unsent = response.length - response.counted;
          // A broken response leaves the span it handed out; one that ended normally had it all delivered as far as we can know.
          const cut = !finished && response.counted > 0 ? { start: response.start, end: response.start + response.counted } : null;
          if (unsent > 0) await this.links.returnBytes(hash, unsent, cut);
        } finally {
          set.delete(response);
          if (set.size === 0) this.live.delete(hash);
          settle();
        }
      },
    };
  }

  /**
   * A continuation (start > 0) stops the responses of this ticket still being sent whose sent span
   * reaches `start` and that have not sent all they took, and waits until they gave back what they
   * did not send. A request from byte 0 stops nothing: a second whole download beside a running one
   * is refused, not allowed to break it off.
   */
  private async supersede(hash: string, start: number): Promise<void> {
    if (start === 0) return;
    const ending: Promise<void>[] = [];
    for (const l of this.live.get(hash) ?? []) {
      if (l.start <= start && start <= l.start + l.counted && l.counted < l.length) {
        l.stop();
        ending.push(l.ended);
      }
    }
    await Promise.all(ending);
  }
}
