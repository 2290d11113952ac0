/**
 * The service worker's picture cache that holds an account's own pictures (thumbnails). The app
 * deletes it whenever an account's session ends, with the rest of that account's offline data.
 */
export const ACCOUNT_PICTURE_CACHE = 'drive-account-pictures';
