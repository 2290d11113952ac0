import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Where to look for a Chromium when CHROMIUM_PATH is not set (Debian's package first). */
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

export const CHROMIUM_MISSING_MESSAGE =
  'End-to-end tests need Chromium and none was found.\n' +
  '  Debian/Ubuntu: sudo apt-get install -y chromium   (CI: .ci/run does this)\n' +
  '  elsewhere:     set CHROMIUM_PATH=/path/to/chrome-or-chromium';

/** Flags for a headless Chromium on a machine with no outside network and no GPU. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function findChromium(): string | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  for (const name of CANDIDATES) {
    try {
      const path = execFileSync('which', [name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      if (path) return path;
    } catch {
      // not on PATH; try the next name
    }
  }
  return null;
}
