/**
 * The tenant's rules for files a desktop sync is about to upload (`POST /api/syn/content` with
 * `check`), judged the same way by the server and by the tests' fake of it:
 *  1. a blocked type (the tenant's blocked extensions, as on every upload) → intercepted;
 *  2. a classification mark in the name (密级标志: 绝密★, 机密★, 秘密★ followed by the term, the
 *     standard marking of classified documents, or one of the tenant's own marks) → secret;
 *  3. one of the tenant's sensitive keywords in the name → sensitive.
 * The first that applies wins. None of them is uploaded; each goes to its own list in the client.
 */
export type SyncVerdict = 'ok' | 'intercepted' | 'sensitive' | 'secret';

export interface SyncRules {
  /** Lower case, without the dot. */
  blockedExtensions: readonly string[];
  sensitiveKeywords: readonly string[];
  /** Extra classification marks (besides the standard ★ marks). */
  secretMarks: readonly string[];
}

/** 绝密★, 机密★, 秘密★ (also with a white star or a space before it). */
const STANDARD_SECRET_MARK = /(绝密|机密|秘密)\s*[★☆]/;

export const SYNC_VERDICT_REASONS: Record<Exclude<SyncVerdict, 'ok'>, string> = {
  intercepted: '管理员不允许上传该类型的文件',
  secret: '文件名带有密级标志，涉密文件不得上传',
  sensitive: '文件名含有敏感词，已拦截',
};

export function judgeSyncFile(name: string, rules: SyncRules): { verdict: SyncVerdict; reason: string | null } {
  const lower = name.normalize('NFC').toLowerCase();
  const dot = lower.lastIndexOf('.');
  const extension = dot > 0 ? lower.slice(dot + 1) : '';
  if (extension && rules.blockedExtensions.includes(extension)) return { verdict: 'intercepted', reason: SYNC_VERDICT_REASONS.intercepted };
  if (STANDARD_SECRET_MARK.test(name) || rules.secretMarks.some((m) => m !== '' && lower.includes(m.toLowerCase()))) {
    return { verdict: 'secret', reason: SYNC_VERDICT_REASONS.secret };
  }
  const keyword = rules.sensitiveKeywords.find((k) => k !== '' && lower.includes(k.toLowerCase()));
  if (keyword) return { verdict: 'sensitive', reason: `文件名含有敏感词“${keyword}”，已拦截` };
  return { verdict: 'ok', reason: null };
}
