/**
 * The keywords a user searched for lately, on this browser (the app's storage root), newest first:
 * the search page offers them before anything is typed. Per user, so a shared computer does not show
 * one person's searches to the next; at most RECENT_SEARCHES_MAX.
 */
import { readStored, writeStored } from '../../../lib/use-stored-state';

export const RECENT_SEARCHES_MAX = 10;

const keyOf = (userId: string): string => `recentSearches:${userId}`;
const isList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

export function recentSearches(userId: string): string[] {
  return readStored(keyOf(userId), [], isList).slice(0, RECENT_SEARCHES_MAX);
}

/** `keyword` becomes the newest entry (moved up when it was there already). */
export function rememberSearch(userId: string, keyword: string): string[] {
  const word = keyword.trim();
  if (!word) return recentSearches(userId);
  const next = [word, ...recentSearches(userId).filter((k) => k !== word)].slice(0, RECENT_SEARCHES_MAX);
  writeStored(keyOf(userId), next);
  return next;
}

export function forgetSearches(userId: string, keyword?: string): string[] {
  const next = keyword === undefined ? [] : recentSearches(userId).filter((k) => k !== keyword);
  writeStored(keyOf(userId), next);
  return next;
}
