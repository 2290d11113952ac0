/**
 * Alternating Lighthouse runs of 个人文件 against two (or more) builds, with the bench's settings
 * (tests/support/lighthouse.ts: Lighthouse's desktop preset in a fresh Chromium), and what each run's
 * trace says about the main thread's long tasks. For comparing a change on a shared machine: the
 * builds are loaded in turns (ABBA…), so a change of load hits both alike.
 *
 *   STATIC_DIR=/tmp/ab/A npx vite build   # in the worktree of each build
 *   node --import tsx tests/tools/lighthouse-ab.ts --rounds 6 --out /tmp/ab A=/tmp/ab/A B=/tmp/ab/B
 *
 * One server per build (this worktree's dist-server/main.cjs, `npm run build:server`), each with its
 * own data directory, the administrator logged in and one file uploaded (as the delivery bench).
 * `--profile` adds V8's sampling profiler to the trace and prints, per long task, where its samples
 * fell (build with `--minify false` to read the names). `--keep` writes each run's trace.
 *
 * Per run: score, FCP, LCP, TBT (Lantern's), SI, and the observed main-thread tasks of ≥ 50 ms after
 * FCP: wall time, thread CPU time, and what ran in them (the trace's FunctionCall / EvaluateScript /
 * GC / layout events, by self time).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_ARGS, findChromium } from '../support/chromium';
import { freePort } from '../support/free-port';
import { npmStartNodeArgs } from '../support/npm-start-args';
import { API } from '../../common/api/paths';
import { loggedInClient, uploadFile, type TestServer } from '../server/helpers';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; frame?: string; name?: string };
  id?: string;
}

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1]! : fallback;
};
const rounds = Number(option('rounds', '4'));
const out = option('out', '/tmp/lighthouse-ab');
const pagePath = option('page', '/main/file/personal');
const builds = argv.filter((a) => /^[\w-]+=/.test(a)).map((a) => ({ label: a.split('=')[0]!, dir: path.resolve(a.slice(a.indexOf('=') + 1)) }));
if (builds.length === 0) throw new Error('name builds as LABEL=<static dir>');
mkdirSync(out, { recursive: true });

async function startServer(label: string, staticDir: string): Promise<{ baseUrl: string; dataDir: string; child: ChildProcess }> {
  const port = await freePort();
  const dataDir = path.join(out, `${label}-data-${Date.now()}`);
  const { NODE_ENV: _runner, ...inherited } = process.env;
  // `npm start`'s node command (its flags and dist-server/main.cjs, from the repository root this tool runs in).
  const child = spawn('node', npmStartNodeArgs(), {
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: staticDir, DRIVE_TEST_HOOKS: '1', LOG_REQUESTS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240 && child.exitCode === null; i++) {
    if (await fetch(baseUrl + API.systemConfig).then((r) => r.ok, () => false)) return { baseUrl, dataDir, child };
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error(`${label}: server did not come up`);
}

/** Self time of each event name (FunctionCall named by function and script) inside [start, end] of one thread. */
function breakdown(events: TraceEvent[], start: number, end: number): Map<string, number> {
  const inside = events.filter((e) => e.ph === 'X' && e.ts >= start && e.ts + (e.dur ?? 0) <= end && e.name !== 'RunTask').sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { e: TraceEvent; key: string; child: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length && stack[stack.length - 1]!.e.ts + (stack[stack.length - 1]!.e.dur ?? 0) <= upTo) {
      const top = stack.pop()!;
      self.set(top.key, (self.get(top.key) ?? 0) + (top.e.dur ?? 0) - top.child);
      if (stack.length) stack[stack.length - 1]!.child += top.e.dur ?? 0;
    }
  };
  for (const e of inside) {
    close(e.ts);
    const d = e.args?.data ?? {};
    const script = (u: unknown) => String(u ?? '').replace(/^.*\//, '');
    let key = e.name;
    if (e.name === 'FunctionCall') key = `call ${String(d.functionName || '(anon)')}@${script(d.url)}:${String(d.lineNumber ?? '')}`;
    else if (e.name === 'EvaluateScript' || e.name === 'v8.compile' || e.name === 'v8.compileModule' || e.name === 'v8.evaluateModule') key = `${e.name} ${script(d.url ?? (e.args as { fileName?: string })?.fileName)}`;
    else if (e.name === 'TimerFire' || e.name === 'FireAnimationFrame' || e.name === 'EventDispatch') key = `${e.name} ${String(d.type ?? '')}`;
    stack.push({ e, key, child: 0 });
  }
  close(Infinity);
  return self;
}

/** Samples of V8's profiler in [start, end]: self counts by the innermost named frame. */
function sampled(events: TraceEvent[], pid: number, tid: number, start: number, end: number): Map<string, number> {
  const nodes = new Map<number, { callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; parent?: number }>();
  const counts = new Map<string, number>();
  for (const profileEvent of events.filter((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid)) {
    const id = profileEvent.id;
    let time = Number((profileEvent.args?.data as { startTime?: number })?.startTime ?? 0);
    for (const chunk of events.filter((e) => e.name === 'ProfileChunk' && e.id === id && e.pid === pid)) {
      const cp = (chunk.args?.data as { cpuProfile?: { nodes?: typeof nodes extends Map<number, infer V> ? (V & { id: number })[] : never; samples?: number[] }; timeDeltas?: number[] }) ?? {};
      for (const n of cp.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
      const samples = cp.cpuProfile?.samples ?? [];
      const deltas = cp.timeDeltas ?? [];
      for (let i = 0; i < samples.length; i++) {
        time += deltas[i] ?? 0;
        if (time < start || time > end) continue;
        const node = nodes.get(samples[i]!);
        if (!node) continue;
        const f = node.callFrame;
        const key = f.url ? `${f.functionName || '(anon)'}@${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}:${f.columnNumber + 1}` : f.functionName;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  return counts;
}

interface RunSummary {
  label: string;
  round: number;
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  si: number;
  tti: number;
  longTasks: { at: number; wall: number; cpu: number; top: string }[];
  longWall: number;
  longCpu: number;
  mainCpuAfterFcp: number;
}

async function runOnce(label: string, round: number, url: string, cookie: string): Promise<RunSummary> {
  const chromePath = findChromium()!;
  const chrome = await launch({ chromePath, chromeFlags: [...CHROMIUM_ARGS, '--headless=new'] });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], extraHeaders: { Cookie: cookie }, ...(flag('profile') ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' } : {}) },
      desktopConfig,
    );
    if (!result) throw new Error('no result');
    const { lhr, artifacts } = result;
    if (lhr.runtimeError) throw new Error(lhr.runtimeError.code);
    const trace = (artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace;
    if (flag('keep')) writeFileSync(path.join(out, `trace-${label}-${round}.json`), JSON.stringify(trace));
    const events = trace.traceEvents;
    const fcpEvent = events.find((e) => e.name === 'firstContentfulPaint');
    const navStart = events.find((e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').includes(pagePath));
    if (!fcpEvent || !navStart) throw new Error('no FCP or navigationStart in the trace');
    const { pid } = fcpEvent;
    const main = events.find((e) => e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain');
    const tid = main?.tid ?? fcpEvent.tid;
    const thread = events.filter((e) => e.pid === pid && e.tid === tid);
    const tasks = thread.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts >= fcpEvent.ts);
    const mainCpuAfterFcp = tasks.reduce((s, e) => s + (e.tdur ?? 0), 0) / 1000;
    const long = tasks.filter((e) => (e.dur ?? 0) >= 50_000);
    const longTasks = long.map((e) => {
      const end = e.ts + (e.dur ?? 0);
      const parts = [...breakdown(thread, e.ts, end)].sort((a, b) => b[1] - a[1]).slice(0, flag('profile') ? 4 : 6);
      let top = parts.map(([k, v]) => `${k} ${Math.round(v / 1000)}`).join(' | ');
      if (flag('profile')) {
        const samples = [...sampled(events, pid, tid, e.ts, end)].sort((a, b) => b[1] - a[1]).slice(0, 12);
        top += '\n        samples: ' + samples.map(([k, v]) => `${k} ×${v}`).join('\n                 ');
      }
      return { at: Math.round((e.ts - navStart.ts) / 1000), wall: Math.round((e.dur ?? 0) / 1000), cpu: Math.round((e.tdur ?? 0) / 1000), top };
    });
    const ms = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
    return {
      label,
      round,
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcp: ms('first-contentful-paint'),
      lcp: ms('largest-contentful-paint'),
      tbt: ms('total-blocking-time'),
      si: ms('speed-index'),
      tti: ms('interactive'),
      longTasks,
      longWall: longTasks.reduce((s, t) => s + t.wall, 0),
      longCpu: longTasks.reduce((s, t) => s + t.cpu, 0),
      mainCpuAfterFcp: Math.round(mainCpuAfterFcp),
    };
  } finally {
    await chrome.kill();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const servers: { label: string; url: string; cookie: string; child: ChildProcess }[] = [];
try {
  for (const b of builds) {
    const s = await startServer(b.label, b.dir);
    const admin = await loggedInClient({ baseUrl: s.baseUrl, dataDir: s.dataDir } as TestServer);
    const up = await uploadFile(admin, Buffer.from('%PDF-1.4 bench'), '季度报告.pdf', { chunkSize: 16 * 1024 * 1024 });
    if (up.status !== 200) throw new Error(`upload: ${JSON.stringify(up.body)}`);
    servers.push({ label: b.label, url: s.baseUrl + pagePath, cookie: admin.cookie, child: s.child });
  }
  const log = path.join(out, 'runs.jsonl');
  const all: RunSummary[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? servers : [...servers].reverse();
    for (const s of order) {
      const load = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      const run = await runOnce(s.label, r, s.url, s.cookie).catch((e: unknown) => {
        console.log(`${s.label} round ${r}: ${String(e)}`);
        return null;
      });
      if (!run) continue;
      all.push(run);
      appendFileSync(log, JSON.stringify({ ...run, load }) + '\n');
      console.log(`${run.label} r${r} load ${load}: score ${run.score} FCP ${run.fcp} LCP ${run.lcp} TBT ${run.tbt} SI ${run.si} TTI ${run.tti}; main CPU after FCP ${run.mainCpuAfterFcp} ms; long tasks wall ${run.longWall} cpu ${run.longCpu}`);
      for (const t of run.longTasks) console.log(`    @${t.at} ${t.wall} ms (cpu ${t.cpu}): ${t.top}`);
    }
  }
  for (const s of servers) {
    const runs = all.filter((r) => r.label === s.label);
    console.log(
      `${s.label}: ${runs.length} runs, score median ${median(runs.map((r) => r.score))} (${runs.map((r) => r.score).join(' ')}), TBT median ${median(runs.map((r) => r.tbt))} (${runs.map((r) => r.tbt).join(' ')}), long-task CPU median ${median(runs.map((r) => r.longCpu))} (${runs.map((r) => r.longCpu).join(' ')}), main CPU after FCP median ${median(runs.map((r) => r.mainCpuAfterFcp))}, LCP median ${median(runs.map((r) => r.lcp))}, SI median ${median(runs.map((r) => r.si))}`,
    );
  }
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
}
