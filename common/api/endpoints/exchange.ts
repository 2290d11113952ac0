import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import { NullableCursor, IdBody, IdList, IdString, PageSize } from '../schemas';
import type { KeepOnDownloadResponse, ProcessedListResponse, SwapCheckResponse } from '../sharing';

/** The exchange area's calls of spec §7 (rules and answers in ../sharing.ts, "exchange area"). */

/** checkSwap and fileSafe/check `{ids}`: files or folders (their files) of the exchange area. */
export const SwapCheckBody = Type.Object({ ids: IdList });
export type SwapCheckRequest = Static<typeof SwapCheckBody>;

/** With `ids` + `decision` deals with intercepted files; answers the processed ones, newest first. */
export const ProcessedListBody = Type.Object({
  ids: Type.Optional(Type.Array(IdString, { maxItems: 1000 })),
  decision: Type.Optional(Type.Enum(['dismiss', 'delete'], { type: 'string' })),
  cursor: Type.Optional(NullableCursor),
  pageSize: Type.Optional(PageSize),
});
export type ProcessedListRequest = Static<typeof ProcessedListBody>;

const member = 'member' as const;

export const EXCHANGE = {
  /**
   * Spec §7 checkSwap (path ours): exchange-area files (and folders' files) put in from this network
   * build are checked against the tenant's exchange rules; those that pass become usable from the
   * other build, the others are intercepted.
   */
  checkSwap: endpoint({ method: 'POST', path: API.checkSwap, access: member, action: 'exchange.check', body: SwapCheckBody, response: data<SwapCheckResponse>() }),
  /** Spec §7 fileSafe/check (path ours): the same checks on demand, nothing changes. */
  fileSafeCheck: endpoint({ method: 'POST', path: API.fileSafeCheck, access: member, action: 'exchange.safeCheck', body: SwapCheckBody, response: data<SwapCheckResponse>() }),
  /** With ids and a decision it deals with intercepted files; without, a read (the service says which). */
  processedList: endpoint({ method: 'POST', path: API.processedList, access: member, action: 'exchange.process', body: ProcessedListBody, response: data<ProcessedListResponse>() }),
  /**
   * Spec §7 keepOnDownload (path ours, GET as the spec says) `?id=`: the user confirms downloading a flagged file; answers the download address. It changes
   * state, so the client sends the platform header (like keepOnUpload): no cross-site GET may do it.
   */
  keepOnDownload: endpoint({ method: 'GET', path: API.keepOnDownload, access: member, action: 'exchange.confirmDownload', query: IdBody, response: data<KeepOnDownloadResponse>() }),
};
