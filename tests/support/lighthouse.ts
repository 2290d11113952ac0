/**
 * One Lighthouse run (12.x, its desktop preset, as `lighthouse --preset=desktop`) of a page in a newly
 * launched Debian Chromium, shared by the `delivery` bench and the accessibility e2e test.
 *
 * A run can end in a runtime error instead of a measurement (seen: NO_NAVSTART, the trace of a
 * brand-new browser's first navigation without the frame's navigation start). That is not a score of
 * 0: the run is made once more, and `retriedAfter` says why; a second error throws.
 */
import type { Result } from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_MISSING_MESSAGE, findChromium } from './chromium';

export type LighthouseCategory = 'performance' | 'accessibility' | 'best-practices';

export interface LighthouseOptions {
  categories: LighthouseCategory[];
  /** Sent with every request (a logged-in page). */
  cookie?: string | null;
}

export interface LighthouseReport {
  lhr: Result;
  /** The runtime error of a first run that was made again, else null. */
  retriedAfter: string | null;
}

export async function runLighthouse(url: string, options: LighthouseOptions): Promise<LighthouseReport> {
  const first = await lighthouseOnce(url, options);
  if (!first.runtimeError) return { lhr: first, retriedAfter: null };
  console.warn(`lighthouse ${url}: ${first.runtimeError.code}; running it once more`);
  const second = await lighthouseOnce(url, options);
  if (second.runtimeError) throw new Error(`lighthouse ${url} failed twice: ${first.runtimeError.code}, then ${second.runtimeError.code}`);
  return { lhr: second, retriedAfter: first.runtimeError.code };
}

async function lighthouseOnce(url: string, options: LighthouseOptions): Promise<Result> {
  const chromePath = findChromium();
  if (!chromePath) throw new Error(CHROMIUM_MISSING_MESSAGE);
  const { launch } = await import('chrome-launcher');
  const { default: lighthouse } = await import('lighthouse');
  const { default: desktopConfig } = await import('lighthouse/core/config/desktop-config.js');
  const chrome = await launch({ chromePath, chromeFlags: [...CHROMIUM_ARGS, '--headless=new'] });
  try {
    const extraHeaders = options.cookie ? { Cookie: options.cookie } : undefined;
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: options.categories, extraHeaders }, desktopConfig);
    if (!result) throw new Error(`lighthouse ${url}: no result`);
    return result.lhr;
  } finally {
    await chrome.kill();
  }
}
