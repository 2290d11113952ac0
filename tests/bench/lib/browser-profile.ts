/**
 * Profile mode of the browser suites (BENCH_BROWSER_PROFILE=<dir>): the app built unminified and the
 * server under `node --cpu-prof` (lib/browser-drive), one piece of work recorded with a Chromium trace of
 * every process (V8 sampling profiles of the page and each worker, top-level tasks of every thread), and
 * both summarised (lib/profile-summary) into <dir>/summary.txt. Tracing and --cpu-prof slow things down:
 * the figures of a profiled run are not the suite's figures.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openBrowserDrive, type BrowserDrive } from './browser-drive';
import { chromiumProcesses, threadCpuSnapshot } from './chromium-procs';
import { formatProfileReport, summariseChromiumTrace, summariseCpuProfile } from './profile-summary';

/** Trace categories: the V8 sampler on every isolate, top-level tasks (with thread CPU time) everywhere. */
const CATEGORIES = ['-*', 'toplevel', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', '__metadata'];

/**
 * BENCH_BROWSER_TRACE_CATEGORIES (comma-separated) adds categories to the trace, e.g. `devtools.timeline,blink,cc,v8`
 * to name what the page's frames, layouts and the compositor's tasks do (trace.json; the summary ignores them).
 */
const EXTRA_CATEGORIES = (process.env.BENCH_BROWSER_TRACE_CATEGORIES ?? '').split(',').map((c) => c.trim()).filter(Boolean);

/**
 * Opens a profiled drive, runs `prepare` (untraced), then `work` traced; returns `work`'s header line
 * and the report, also written to <profileDir>/summary.txt (the trace to trace.json, the server profile
 * beside it).
 */
export async function recordBrowserProfile(profileDir: string, label: string, prepare: (drive: BrowserDrive) => Promise<void>, work: (drive: BrowserDrive) => Promise<string>): Promise<{ header: string; report: string }> {
  rmSync(profileDir, { recursive: true, force: true });
  mkdirSync(profileDir, { recursive: true });
  const tracePath = path.join(profileDir, 'trace.json');
  const drive = await openBrowserDrive(label, { profileDir });
  let header: string;
  const threadCpu: { key: string; kind: string; name: string; seconds: number }[] = [];
  try {
    await prepare(drive);
    const procs = [...chromiumProcesses(), { pid: drive.serverPid, kind: 'server' }];
    const kindOf = new Map(procs.map((p) => [p.pid, p.kind]));
    await drive.browser.startTracing(undefined, { path: tracePath, categories: [...CATEGORIES, ...EXTRA_CATEGORIES] });
    const before = threadCpuSnapshot(procs.map((p) => p.pid));
    try {
      header = await work(drive);
    } finally {
      for (const [key, t] of threadCpuSnapshot(procs.map((p) => p.pid))) {
        threadCpu.push({ key, kind: kindOf.get(Number(key.split(':')[0])) ?? '?', name: t.name, seconds: t.seconds - (before.get(key)?.seconds ?? 0) });
      }
      await drive.browser.stopTracing();
    }
  } finally {
    await drive.close(); // the server writes its .cpuprofile as it exits
  }
  const threads = summariseChromiumTrace(JSON.parse(readFileSync(tracePath, 'utf8')));
  // One .cpuprofile per server thread (CPU.<date>.<time>.<pid>.<thread>.<seq>): the main thread is 0.
  const serverProfiles = readdirSync(profileDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => Number(a.split('.').at(-3)) - Number(b.split('.').at(-3)));
  const servers = serverProfiles.map((f) => ({ thread: Number(f.split('.').at(-3)), ...summariseCpuProfile(JSON.parse(readFileSync(path.join(profileDir, f), 'utf8'))) }));
  // The trace's thread ids are the kernel's: label /proc's threads with what the trace says runs there.
  const roles = new Map(threads.map((t) => [`${t.pid}:${t.tid}`, `[${t.role}]`]));
  const cpuLines = threadCpu
    .filter((t) => t.seconds >= 0.05)
    .sort((a, b) => b.seconds - a.seconds)
    .map((t) => `  ${t.seconds.toFixed(2).padStart(7)} s  ${t.kind} ${t.name} (${t.key}) ${roles.get(t.key) ?? ''}`);
  const report = `${header}\n\n## CPU-seconds per thread during the work (/proc: every Chromium process and the server)\n${cpuLines.join('\n')}\n${formatProfileReport(threads, servers)}\n`;
  writeFileSync(path.join(profileDir, 'summary.txt'), report);
  return { header, report };
}
