import { ERRORS } from '../../common/api/errors';
import { ORG_PAGE_DEFAULT, ORG_PAGE_MAX } from '../../common/api/org-types';
import { AppError } from '../http/app-error';

/** People lists are keyed by account key alone (unique per tenant): the cursor is that key, opaque. */
export function encodePeopleCursor(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64url');
}

export function decodePeopleCursor(cursor: string | null | undefined): string | null {
  if (!cursor) return null;
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw new AppError(ERRORS.VALIDATION, '分页标记不正确');
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

export function pageSizeOf(raw: number | string | undefined): number {
  const n = Number(raw ?? ORG_PAGE_DEFAULT);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, ORG_PAGE_MAX) : ORG_PAGE_DEFAULT;
}

/** One page of `limit` rows from `limit + 1` fetched, with the cursor of the next page. */
export function toPage<R extends { username_key?: string }, T>(rows: R[], limit: number, map: (r: R) => T): { items: T[]; nextCursor: string | null } {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { items: kept.map(map), nextCursor: more && last?.username_key ? encodePeopleCursor(last.username_key) : null };
}
