/** Business constants of spec §9 and §8. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 16;
/** Error and notice toasts stay this long (spec §8/§9). */
export const TOAST_DURATION_SECONDS = 3;
/** A lazily loaded page chunk fails after this long (spec §8/§9). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** Infinite scroll loads the next page within this distance of the table bottom (spec §9)... */
export const INFINITE_SCROLL_THRESHOLD_PX = 100;
/** ...at most once per this interval. */
export const INFINITE_SCROLL_THROTTLE_MS = 350;
/** Spec §9 date format. */
export const DATE_FORMAT = 'yyyy-MM-dd HH:mm';
/** Longest file or folder name, in UTF-16 code units. */
export const NAME_MAX_LENGTH = 255;
/** Where a 401 coming from a share link carries the page to return to. */
export const REDIRECT_QUERY_PARAM = 'redirect';
