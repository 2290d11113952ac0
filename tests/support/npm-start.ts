/**
 * Starts the product exactly as a newcomer does, `npm start` (build + one server process), on a free
 * port, and stops it again. Used by the end-to-end global setup (the internal build every e2e test
 * uses) and by tests that need a second instance (the public-network build).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { API } from '../../common/api/paths';
import { freePort } from './free-port';

/**
 * `npm start` builds the web app first; allow for a slow machine (NPM_START_TIMEOUT_MS for a shared one:
 * at load ~24 on 2 cores the build alone took over 70 s and the bench's start ran out).
 */
const START_TIMEOUT_MS = Number(process.env.NPM_START_TIMEOUT_MS) || 170_000;

export interface NpmStartInstance {
  baseUrl: string;
  /** SIGTERM to the whole process group (npm, the build, the server), SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/** `env` is added to this process's environment (DATA_DIR, STATIC_DIR, NETWORK_ENV…); output goes to `logFile`. */
export async function startNpmStart(env: Record<string, string>, logFile: string): Promise<NpmStartInstance> {
  const port = await freePort();
  const log = createWriteStream(logFile);
  // Not the runner's NODE_ENV (vitest sets 'test'): Vite would then bundle React's development build,
  // and the tests would not see what a newcomer's `npm start` serves.
  const { NODE_ENV: _runnerNodeEnv, ...inherited } = process.env;
  const child = spawn('npm', ['start'], {
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', ...env },
    detached: true, // own process group: stop() ends npm, the build and the server together
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const stop = async (): Promise<void> => {
    if (child.pid && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    const up = await fetch(baseUrl + API.systemConfig).then(
      (r) => r.ok,
      () => false, // not listening yet
    );
    if (up) return { baseUrl, stop };
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`npm start did not come up at ${baseUrl}:\n${readFileSync(logFile, 'utf8').slice(-4000)}`);
}
