/**
 * Importing a page chunk again after its import failed.
 *
 * A dynamic import that failed stays failed in the browser's module map: Debian's Chromium 150
 * answers `import(sameUrl)` with the cached error, without a request, so 重试 did nothing after the
 * network came back. (The HTML standard has since dropped caching failed fetches, so newer browsers may
 * fetch again; either way this works.) A retry therefore imports the URL the failure named with a
 * `retry` query parameter: a new module-map entry, while the chunk's own imports keep their URLs and
 * stay shared with the rest of the app.
 */

const RETRY_PARAM = 'retry';

/**
 * The module URL a failed dynamic import names (Chromium: "Failed to fetch dynamically imported
 * module: URL", Firefox: "error loading dynamically imported module: URL"), without an earlier retry
 * parameter; null when the message names none (Safari).
 */
export function failedModuleUrl(error: unknown): string | null {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const match = /(https?:\/\/[^\s"']+)\s*$/.exec(message);
  if (!match) return null;
  try {
    const url = new URL(match[1]!);
    url.searchParams.delete(RETRY_PARAM);
    return url.href;
  } catch {
    return null;
  }
}

/** `url` with `retry=attempt` (replacing an earlier one). */
export function retryModuleUrl(url: string, attempt: number): string {
  const next = new URL(url);
  next.searchParams.set(RETRY_PARAM, String(attempt));
  return next.href;
}

export type ModuleImporter = (url: string) => Promise<unknown>;

// The URL is only known at run time: the bundler must leave this import as it is.
const nativeImport: ModuleImporter = (url) => import(/* @vite-ignore */ url);

interface Reimport {
  attempt: number;
  module: Promise<unknown>;
  failed: boolean;
}

/** Re-imports by failed URL, shared: pages of one chunk that retry together get one module instance. */
const reimports = new Map<string, Reimport>();

/**
 * Imports `url` (a module whose import failed) under a new retry URL, or returns the re-import
 * already made for it unless that one failed too.
 */
export function reimportFailedModule<M>(url: string, importModule: ModuleImporter = nativeImport): Promise<M> {
  const previous = reimports.get(url);
  if (previous && !previous.failed) return previous.module as Promise<M>;
  const attempt = (previous?.attempt ?? 0) + 1;
  const entry: Reimport = { attempt, module: importModule(retryModuleUrl(url, attempt)), failed: false };
  entry.module.catch(() => (entry.failed = true));
  reimports.set(url, entry);
  return entry.module as Promise<M>;
}

/**
 * The module a dynamic import asked for, out of the chunk a retry imported by its URL. A chunk made for
 * one module exports that module's exports; a chunk holding several (vite.config.ts groups the shell's
 * modules into one) exports each module's namespace object, which the original `import()` picked out.
 * `wanted` tells the module by its exports.
 */
export function moduleInChunk<M>(chunk: unknown, wanted: (candidate: M) => boolean): M {
  if (wanted(chunk as M)) return chunk as M;
  const held = Object.values(chunk as Record<string, unknown>).find((value) => typeof value === 'object' && value !== null && wanted(value as M));
  if (held === undefined) throw new Error('the re-imported chunk does not hold the module asked for');
  return held as M;
}

/**
 * A loader of one lazily imported module that retries the way a page's 重试 needs: the first call imports
 * it as written; once an import failed, the next call imports the chunk the failure named again
 * (`reimportFailedModule`) and picks the module out of it (`moduleInChunk`, told by `wanted`).
 */
export function retryingImport<M>(importModule: () => Promise<M>, wanted: (candidate: M) => boolean, reimport: ModuleImporter = nativeImport): () => Promise<M> {
  let failedUrl: string | null = null;
  return () => {
    const module = failedUrl ? reimportFailedModule<unknown>(failedUrl, reimport).then((chunk) => moduleInChunk<M>(chunk, wanted)) : importModule();
    return module.catch((error: unknown) => {
      failedUrl = failedModuleUrl(error) ?? failedUrl;
      throw error;
    });
  };
}
