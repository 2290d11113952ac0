import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import readline from 'node:readline';

/**
 * One server process of the cluster, kept running: started on its port, restarted when it dies
 * unless we stopped it (after 0.5 s, doubling up to 30 s while it keeps dying young). While it is
 * down the balancer's health checks take it out of rotation and requests go to the others.
 */
export interface SlotOptions {
  name: string;
  port: number;
  /** node's arguments, e.g. ['--import', 'tsx', 'server/main.ts'] or a bundle's path. */
  entry: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Added to `env` for the n-th start (1 = the first): lets a test arm a crash point once. */
  envOfStart?: (start: number) => Record<string, string>;
  restart: boolean;
  log: (name: string, line: string) => void;
}

const FIRST_RESTART_MS = 500;
const MAX_RESTART_MS = 30_000;
/** A process that lived this long before dying restarts after the first delay again. */
const HEALTHY_LIFE_MS = 30_000;

export class ServerSlot {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restartDelay = FIRST_RESTART_MS;
  private restartTimer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  /** How many times this slot's process was started (1 = never restarted). */
  starts = 0;

  constructor(private readonly options: SlotOptions) {}

  get name(): string {
    return this.options.name;
  }
  get port(): number {
    return this.options.port;
  }
  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }
  /** The running process's id, or null while it is down. */
  get pid(): number | null {
    return this.child && this.child.exitCode === null && this.child.signalCode === null ? (this.child.pid ?? null) : null;
  }

  start(): void {
    const { entry, cwd, env, name, log, envOfStart } = this.options;
    this.starts++;
    // Its own process group: a Ctrl-C in the terminal reaches the supervisor only, which stops
    // the balancer and the servers in order.
    const child = spawn(process.execPath, [...entry], { cwd, env: { ...env, ...envOfStart?.(this.starts), PORT: String(this.options.port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    this.startedAt = Date.now();
    for (const stream of [child.stdout!, child.stderr!]) readline.createInterface({ input: stream }).on('line', (line) => log(name, line));
    child.once('exit', (code, signal) => {
      if (this.stopping || !this.options.restart) return;
      const lived = Date.now() - this.startedAt;
      if (lived >= HEALTHY_LIFE_MS) this.restartDelay = FIRST_RESTART_MS;
      log(name, `[cluster] exited (${signal ?? `code ${code}`}) after ${lived} ms; restarting in ${this.restartDelay} ms`);
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (!this.stopping) this.start();
      }, this.restartDelay);
      this.restartDelay = Math.min(this.restartDelay * 2, MAX_RESTART_MS);
    });
  }

  /** Resolves once the process answers its health check; rejects if it exits first or `signal` aborts. */
  async waitHealthy(healthPath: string, signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      if (this.pid === null) {
        // Down: wait for the restart that is due, unless none is.
        if (this.restartTimer || (this.child?.exitCode === null && this.child.signalCode === null)) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        throw new Error(`${this.name} exited while starting`);
      }
      const ok = await fetch(this.url + healthPath, { signal: AbortSignal.any([signal, AbortSignal.timeout(2_000)]) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** SIGKILL (a crash, for tests); the slot restarts it unless restarts are off. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM (the server closes cleanly), SIGKILL after `graceMs`; no restart afterwards. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** For the supervisor's last-moment clean-up (process 'exit'): synchronous. */
  killNow(): void {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    if (this.pid) this.child!.kill('SIGKILL');
  }
}
