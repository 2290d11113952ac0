/**
 * The server started as `npm start` starts it: the node command of package.json's `start` script (its
 * flags and the prebuilt dist-server/main.cjs), the bundle built first by `server/build.ts` as
 * `npm run build` does. For benchmarks whose figures must be the ones a user gets (the store bench's
 * memory) started as a child they control (tests/support/drive-server.ts), where tests keep
 * `node --import tsx server/main.ts`. (tests/support/npm-start.ts runs `npm start` itself, web build included.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildServer } from '../../server/build';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** The arguments after `node` in the `start` script's last command, e.g. ['--max-semi-space-size=2', 'dist-server/main.cjs']. */
export function npmStartNodeArgs(): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const last = scripts.start!.split('&&').pop()!.trim().split(/\s+/);
  if (last[0] !== 'node') throw new Error(`package.json's start script does not end in a node command: ${scripts.start}`);
  return last.slice(1);
}

let built: Promise<string> | undefined;

/** Builds dist-server/main.cjs (once per process) and answers `npm start`'s node arguments. */
export async function npmStartServer(): Promise<string[]> {
  built ??= buildServer();
  await built;
  return npmStartNodeArgs();
}
