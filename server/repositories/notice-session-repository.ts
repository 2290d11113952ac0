import type { Db } from '../db/database';

export type StreamSessionState = 'valid' | 'ended' | 'none';

/** The sessions behind open notice streams, checked in one query (without sliding their expiry). */
export class NoticeSessionRepository {
  constructor(private readonly db: Db) {}

  async states(sessionIds: readonly string[], now: number): Promise<Map<string, StreamSessionState>> {
    const out = new Map<string, StreamSessionState>();
    for (let i = 0; i < sessionIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.id', 's.ended_reason', 's.expires_at', 'u.locked', 'u.deleted_at'])
        .where('s.id', 'in', sessionIds.slice(i, i + 500))
        .execute();
      for (const r of rows) {
        // As the session guard sees it: expired or gone is no session, ended or locked says so (400sec-core-301).
        if (Number(r.expires_at) <= now || r.deleted_at != null) out.set(r.id, 'none');
        else out.set(r.id, r.ended_reason || r.locked ? 'ended' : 'valid');
      }
    }
    return out;
  }
}
