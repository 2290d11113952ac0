/** Browser-side downloads started by the app: a server address, or bytes the app holds. */

export interface StartDownloadOptions {
  /** The file name the browser should save under (the server's Content-Disposition wins otherwise). */
  name?: string;
  /** Send no Referer: a link page's address carries its code, which another origin must not see. */
  noReferrer?: boolean;
}

/**
 * Starts the browser's own download of `href` through a hidden anchor: the browser streams it to
 * disk with its progress and resume, instead of the page holding the bytes.
 */
export function startDownload(href: string, options: StartDownloadOptions = {}): void {
  const a = document.createElement('a');
  a.href = href;
  if (options.name !== undefined) a.download = options.name;
  if (options.noReferrer) a.rel = 'noreferrer';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Saves bytes as a download named `name` (object URL, revoked once the click has been handled). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  startDownload(url, { name });
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
