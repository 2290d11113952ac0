import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The arguments after `node` in package.json's `start` script's last command, e.g.
 * ['--max-semi-space-size=8', '--heap-growing-percent=100', 'dist-server/main.cjs']: the one place the
 * server's node flags are set (docs/object-store.md, "The server's memory"), so the cluster's processes
 * and the benchmarks run the server as `npm start` does.
 */
export function startScriptNodeArgs(root: string): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const last = scripts.start!.split('&&').pop()!.trim().split(/\s+/);
  if (last[0] !== 'node') throw new Error(`package.json's start script does not end in a node command: ${scripts.start}`);
  return last.slice(1);
}
