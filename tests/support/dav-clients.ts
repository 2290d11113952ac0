/**
 * The real WebDAV clients against the real server (issue 39): a server process on 127.0.0.1 (Basic
 * auth over plain HTTP is allowed on loopback only), a device password made with the CLI
 * (`npm run dav:password`), and runners for Debian's litmus, cadaver and rclone, each in a temp
 * folder of its own (litmus writes debug.log there; cadaver reads ~/.netrc from a temp HOME; rclone
 * takes its remote from environment variables and a config file in the folder).
 */
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN } from '../server/helpers';
import { freePort, startServerProcess, type ServerProcess } from './drive-server';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export interface DavServer {
  server: ServerProcess;
  work: string;
  user: string;
  password: string;
  /** The absolute URL of a path below /dav/ (segments percent-encoded; a trailing '/' kept). */
  url(davPath: string): string;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (no shell); `input` goes to its stdin. Killed (and rejected) after `timeoutMs`. */
export function run(cmd: string, args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} did not finish within ${opts.timeoutMs} ms\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`));
    }, opts.timeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** A new device password for `user`, printed by the CLI (its last line of output). */
export async function devicePassword(dataDir: string, user: string, name: string): Promise<string> {
  const r = await run('npm', ['run', '--silent', 'dav:password', '--', '--data-dir', dataDir, '--user', user, '--name', name], { cwd: ROOT, timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`dav:password failed (${r.code}): ${r.stderr || r.stdout}`);
  const lines = r.stdout.trim().split('\n');
  return lines[lines.length - 1]!.trim();
}

/** A server process with a device password for the administrator. */
export async function startDavServer(prefix: string, env: Record<string, string> = {}): Promise<DavServer> {
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  const server = await startServerProcess({ dataDir: path.join(work, 'server'), port: await freePort(), env });
  try {
    const password = await devicePassword(server.dataDir, ADMIN.username, prefix.replace(/-$/, ''));
    return {
      server,
      work,
      user: ADMIN.username,
      password,
      url: (davPath) => `${server.url}/dav/${davPath.split('/').map(encodeURIComponent).join('/')}`,
    };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

export async function stopDavServer(dav: Partial<DavServer> | undefined): Promise<void> {
  await dav?.server?.stop();
  if (dav?.work) await fsp.rm(dav.work, { recursive: true, force: true });
}

/** One litmus test's outcome as its report line gives it. */
export interface LitmusResult {
  group: string;
  index: number;
  name: string;
  outcome: 'pass' | 'FAIL' | 'SKIPPED' | 'WARNING';
  /** The text after the outcome (litmus's reason), and any WARNING lines that followed. */
  detail: string;
}

/**
 * Parses litmus's report: `-> running \`basic':` starts a group, then one line per test
 * ` 3. put_get................ pass` (or `FAIL (reason)`, `SKIPPED`, `pass (with 1 warning)`), and
 * `WARNING: …` lines under a test.
 */
export function parseLitmus(output: string): LitmusResult[] {
  const out: LitmusResult[] = [];
  let group = '';
  for (const raw of output.split(/\r?\n/)) {
    // Not on a terminal, litmus writes a test's name, then on the same line the name again with its outcome.
    const line = raw.split('\r').pop() ?? '';
    const g = /running `([^']+)'/.exec(line);
    if (g) {
      group = g[1]!;
      continue;
    }
    const tests = [...line.matchAll(/(\d+)\.\s+([A-Za-z0-9_]+)\.*\s*(pass|FAIL|SKIPPED|WARNING)\s*(.*)$/g)];
    const t = tests[tests.length - 1];
    if (t) {
      out.push({ group, index: Number(t[1]), name: t[2]!, outcome: t[3] as LitmusResult['outcome'], detail: t[4] ?? '' });
      continue;
    }
    const w = /^\s*WARNING:\s*(.*)$/.exec(line);
    if (w && out.length > 0) out[out.length - 1]!.detail += ` WARNING: ${w[1]}`;
  }
  return out;
}

/** litmus (Debian's) against `url` with the groups named (TESTS), in `cwd`. */
export async function runLitmus(dav: DavServer, url: string, groups: readonly string[], cwd: string): Promise<{ run: Run; results: LitmusResult[] }> {
  await fsp.mkdir(cwd, { recursive: true });
  const r = await run('litmus', ['--keep-going', url, dav.user, dav.password], { cwd, env: { ...process.env, TESTS: groups.join(' ') }, timeoutMs: 170_000 });
  return { run: r, results: parseLitmus(r.stdout) };
}

/** cadaver with `script` on stdin, credentials from ~/.netrc in a temp HOME. */
export async function runCadaver(dav: DavServer, url: string, script: string, cwd: string): Promise<Run> {
  const home = path.join(cwd, 'home');
  await fsp.mkdir(home, { recursive: true });
  await fsp.writeFile(path.join(home, '.netrc'), `machine 127.0.0.1 login ${dav.user} password ${dav.password}\n`, { mode: 0o600 });
  return run('cadaver', [url], { cwd, env: { ...process.env, HOME: home, LANG: 'C.UTF-8' }, input: script, timeoutMs: 60_000 });
}

/** rclone's command line start and environment for a WebDAV remote `dav:` (vendor other), config file in `dir`. */
export async function rcloneSetup(dav: Pick<DavServer, 'server' | 'user' | 'password'>, dir: string): Promise<{ args: string[]; env: NodeJS.ProcessEnv }> {
  await fsp.mkdir(dir, { recursive: true });
  const config = path.join(dir, 'rclone.conf');
  await fsp.writeFile(config, '', { flag: 'a' });
  const obscured = await run('rclone', ['obscure', dav.password, '--config', config]);
  const env = {
    ...process.env,
    HOME: dir,
    RCLONE_CONFIG_DAV_TYPE: 'webdav',
    RCLONE_CONFIG_DAV_URL: `${dav.server.url}/dav/`,
    RCLONE_CONFIG_DAV_VENDOR: 'other',
    RCLONE_CONFIG_DAV_USER: dav.user,
    RCLONE_CONFIG_DAV_PASS: obscured.stdout.trim(),
  };
  return { args: ['--config', config], env };
}

/** rclone with a WebDAV remote `dav:` (vendor other) set by environment variables; config file in `dir`. */
export async function rclone(dav: DavServer, args: readonly string[], dir: string, timeoutMs = 280_000): Promise<Run> {
  const setup = await rcloneSetup(dav, dir);
  return run('rclone', [...setup.args, ...args], { cwd: dir, env: setup.env, timeoutMs });
}
