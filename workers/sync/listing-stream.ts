import type { SynContentResponse, SynEntry } from '../../common/api/types';
import { NetworkError } from '../engine/api-client';

/**
 * Reads `POST /api/syn/content`'s answer an item at a time: the server writes one item per line, so
 * 100,000 items never sit in memory as one text and its parse tree at once (that took ~180 MB). An
 * answer in any other layout is read whole.
 */
export async function readListing(res: Response, onItem: (e: SynEntry) => void, signal: AbortSignal): Promise<Omit<SynContentResponse, 'items'>> {
  if (!res.body) throw new NetworkError(new Error('empty answer'));
  const decoder = new TextDecoder();
  let head: Omit<SynContentResponse, 'items'> | null = null;
  let pending = '';
  let whole: string | null = null;
  /** The closing line of the item-per-line layout: an answer cut short before it is not a listing. */
  let ended = false;
  const line = (text: string) => {
    if (whole !== null) {
      whole += `${text}\n`;
      return;
    }
    if (head === null) {
      if (text.endsWith('"items":[')) {
        head = (JSON.parse(`${text}]}}`) as { data: SynContentResponse }).data;
        return;
      }
      whole = `${text}\n`;
      return;
    }
    const item = text.endsWith(',') ? text.slice(0, -1) : text;
    if (item === ']}}') {
      ended = true;
      return;
    }
    if (item === '') return;
    if (ended) throw new NetworkError(new Error('listing continues after its end'));
    onItem(JSON.parse(item) as SynEntry);
  };
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    signal.throwIfAborted();
    pending += decoder.decode(chunk, { stream: true });
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      line(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf('\n');
    }
  }
  pending += decoder.decode();
  if (pending !== '') line(pending);
  if (whole !== null) {
    const data = (JSON.parse(whole) as { data: SynContentResponse }).data;
    for (const item of data.items) onItem(item);
    return data;
  }
  if (head === null || !ended) throw new NetworkError(new Error('incomplete listing'));
  return head;
}
