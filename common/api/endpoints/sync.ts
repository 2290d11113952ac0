import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import { IdString, NameString, Sha256Hex } from '../schemas';
import { SYNC_BATCH_MAX, type SynCheckResponse, type SynContentResponse, type SynRemoveResponse } from '../types';

/** The desktop sync's calls (issue 17; rules in common/sync/, answers in ../types.ts). */

export const SynContentBody = Type.Object({
  rootId: IdString,
  /** The token of the client's last complete listing: `unchanged` when it still holds. */
  token: Type.Optional(Type.Union([Sha256Hex, Type.Null()])),
});
export type SynContentRequest = Static<typeof SynContentBody>;

/** Files a desktop sync is about to upload. */
export const SynCheckBody = Type.Object({
  items: Type.Array(Type.Object({ key: Type.String({ minLength: 1, maxLength: 4096 }), name: NameString, size: Type.Integer({ minimum: 0 }) }), { maxItems: SYNC_BATCH_MAX }),
});
export type SynCheckRequest = Static<typeof SynCheckBody>;

/** Deletes guarded by the digest of what the client saw. */
export const SynRemoveBody = Type.Object({
  items: Type.Array(Type.Object({ id: IdString, digest: Sha256Hex }), { minItems: 1, maxItems: SYNC_BATCH_MAX }),
});
export type SynRemoveRequest = Static<typeof SynRemoveBody>;

export const SYNC = {
  /**
   * Spec §7: the whole live subtree of a folder in 同步文件 as one consistent snapshot (ids, parents,
   * names, sizes, times, content fingerprints, parents before children), or `unchanged: true` and no
   * items when `token` (opaque: a version of the subtree) is still current: an idle sync pass costs one
   * small answer. The JSON is written one item per line, so a client may parse it as it arrives.
   */
  content: endpoint({ method: 'POST', path: API.syncContent, access: 'member', action: null, body: SynContentBody, response: data<SynContentResponse>() }),
  /** Ours: the tenant's verdict per file (common/sync/policy.ts). */
  check: endpoint({ method: 'POST', path: API.syncCheck, access: 'member', action: null, body: SynCheckBody, response: data<SynCheckResponse>() }),
  /**
   * Ours: each entry goes to the recycle bin only if its subtree still has the digest the client
   * computed from its listing; the others are listed in `changed` and left alone (another device
   * changed them meanwhile). Each folder or file removed is recorded by the recycle bin.
   */
  remove: endpoint({ method: 'POST', path: API.syncRemove, access: 'member', action: 'file.delete', body: SynRemoveBody, response: data<SynRemoveResponse>() }),
};
