/**
 * The server started as `npm start` starts it: the node command of package.json's `start` script (its
 * flags and the prebuilt dist-server/main.cjs), the bundle built first by `server/build.ts` as
 * `npm run build` does. For benchmarks whose figures must be the ones a user gets (the store bench's
 * memory) started as a child they control (tests/support/drive-server.ts), where tests keep
 * `node --import tsx server/main.ts`. (tests/support/npm-start.ts runs `npm start` itself, web build included.)
 */
import path from 'node:path';
import { buildServer } from '../../server/build';
import { startScriptNodeArgs } from '../../server/cluster/start-script';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** The arguments after `node` in the `start` script's last command (server/cluster/start-script.ts). */
export function npmStartNodeArgs(): string[] {
  return startScriptNodeArgs(ROOT);
}

let built: Promise<string> | undefined;

/** Builds dist-server/main.cjs (once per process) and answers `npm start`'s node arguments. */
export async function npmStartServer(): Promise<string[]> {
  built ??= buildServer();
  await built;
  return npmStartNodeArgs();
}
