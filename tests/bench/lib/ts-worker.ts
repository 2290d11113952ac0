/**
 * Starts a worker_threads Worker on a TypeScript entry. Node 20 does not pass tsx's loader hooks
 * to workers (neither inherited nor via execArgv), so a tiny bootstrap registers tsx inside the
 * worker first, then imports the entry.
 */
import { Worker } from 'node:worker_threads';

export function startTsWorker(entry: URL): Worker {
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true });
}
