/**
 * Where the time went, from the two profiles the browser-upload suite records in profile mode:
 *  - a Chromium trace (Tracing domain, every process): per thread, its busy time (top-level tasks,
 *    thread CPU time where the trace has it) and, for threads running JavaScript, the V8 sampling
 *    profile's top self-time functions;
 *  - a V8 .cpuprofile of the server (node --cpu-prof): its top self-time functions.
 */

export interface FunctionTime {
  name: string;
  ms: number;
}

export interface ThreadSummary {
  pid: number;
  tid: number;
  process: string;
  thread: string;
  /** What runs there, guessed from the scripts sampled (engine worker, hash worker, page). */
  role: string;
  /** Sum of outermost 'toplevel' tasks: CPU time (tdur) where recorded, else wall time. */
  busyMs: number;
  /** Sampled JavaScript-isolate time without (idle). */
  sampledMs: number;
  top: FunctionTime[];
  /** Top-level tasks by where they were posted from (src_file:src_func), busiest first. */
  tasks: FunctionTime[];
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  parent?: number;
}

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  tdur?: number;
  id?: string;
  args?: { name?: string; src_file?: string; src_func?: string; data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } };
}

const baseName = (url: string): string => url.slice(url.lastIndexOf('/') + 1).replace(/\?.*$/, '');

export function frameName(frame: CallFrame): string {
  const fn = frame.functionName || '(anonymous)';
  if (!frame.url) return fn;
  return `${fn} ${baseName(frame.url)}:${frame.lineNumber + 1}`;
}

/** Self time (ms) per function from samples and the deltas between them. */
function addSelfTimes(into: Map<string, number>, nodes: Map<number, ProfileNode>, samples: number[], deltasUs: number[]): void {
  for (let i = 0; i < samples.length; i++) {
    // The time until the next sample is this sample's (the last one gets nothing).
    const us = deltasUs[i + 1] ?? 0;
    const node = nodes.get(samples[i]!);
    if (!node || us <= 0) continue;
    const key = frameName(node.callFrame);
    into.set(key, (into.get(key) ?? 0) + us / 1000);
  }
}

function topOf(selfMs: Map<string, number>, n: number): FunctionTime[] {
  return [...selfMs]
    .filter(([name]) => name !== '(idle)' && name !== '(root)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => ({ name, ms }));
}

function roleOf(process: string, thread: string, selfMs: Map<string, number>): string {
  const byScript = new Map<string, number>();
  for (const [name, ms] of selfMs) {
    const script = / (\S+):\d+$/.exec(name)?.[1];
    if (script) byScript.set(script, (byScript.get(script) ?? 0) + ms);
  }
  const scripts = [...byScript].sort((a, b) => b[1] - a[1]).map(([s]) => s);
  if (scripts.some((s) => s.startsWith('engine.worker'))) return 'engine worker';
  if (scripts.some((s) => s.startsWith('hash.worker'))) return 'hash worker';
  if (thread === 'CrRendererMain') return 'page main thread';
  return scripts[0] ? `${thread} (${scripts[0]})` : `${process} ${thread}`;
}

/** Summarises a Chromium trace (the JSON Tracing.end streams: an array or {traceEvents}). */
export function summariseChromiumTrace(trace: unknown, topN = 15): ThreadSummary[] {
  const events: TraceEvent[] = Array.isArray(trace) ? (trace as TraceEvent[]) : ((trace as { traceEvents: TraceEvent[] }).traceEvents ?? []);
  const processNames = new Map<number, string>();
  const threadNames = new Map<string, string>();
  const key = (pid: number, tid: number) => `${pid}:${tid}`;
  // Profiles are keyed by (pid, id); their 'Profile' event names the thread sampled.
  const profileThread = new Map<string, string>();
  const profileNodes = new Map<string, Map<number, ProfileNode>>();
  const selfByThread = new Map<string, Map<string, number>>();
  const toplevel = new Map<string, TraceEvent[]>();

  for (const e of events) {
    if (e.ph === 'M' && e.name === 'process_name') processNames.set(e.pid, e.args?.name ?? '');
    else if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(key(e.pid, e.tid), e.args?.name ?? '');
    else if (e.name === 'Profile' && e.id) profileThread.set(`${e.pid}:${e.id}`, key(e.pid, e.tid));
    else if (e.ph === 'X' && e.cat?.split(',').includes('toplevel') && e.dur !== undefined) {
      const k = key(e.pid, e.tid);
      const list = toplevel.get(k) ?? [];
      list.push(e);
      toplevel.set(k, list);
    }
  }
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    const pk = `${e.pid}:${e.id}`;
    const thread = profileThread.get(pk) ?? key(e.pid, e.tid);
    const nodes = profileNodes.get(pk) ?? new Map<number, ProfileNode>();
    profileNodes.set(pk, nodes);
    for (const n of e.args?.data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    const self = selfByThread.get(thread) ?? new Map<string, number>();
    selfByThread.set(thread, self);
    addSelfTimes(self, nodes, e.args?.data?.cpuProfile?.samples ?? [], e.args?.data?.timeDeltas ?? []);
  }

  const threads = new Set([...toplevel.keys(), ...selfByThread.keys()]);
  const out: ThreadSummary[] = [];
  for (const k of threads) {
    const [pid, tid] = k.split(':').map(Number) as [number, number];
    // Outermost top-level tasks only (they nest).
    let busyUs = 0;
    let end = -Infinity;
    const byTask = new Map<string, number>();
    for (const e of (toplevel.get(k) ?? []).sort((a, b) => a.ts! - b.ts!)) {
      if (e.ts! < end) continue;
      end = e.ts! + e.dur!;
      const us = e.tdur ?? e.dur!;
      busyUs += us;
      const where = e.args?.src_func ? `${baseName(e.args.src_file ?? '')}:${e.args.src_func}` : e.name;
      byTask.set(where, (byTask.get(where) ?? 0) + us / 1000);
    }
    const self = selfByThread.get(k) ?? new Map<string, number>();
    const sampledMs = [...self].filter(([n]) => n !== '(idle)' && n !== '(root)').reduce((s, [, ms]) => s + ms, 0);
    const process = processNames.get(pid) ?? String(pid);
    const thread = threadNames.get(k) ?? String(tid);
    out.push({ pid, tid, process, thread, role: roleOf(process, thread, self), busyMs: busyUs / 1000, sampledMs, top: topOf(self, topN), tasks: topOf(byTask, 8) });
  }
  return out.sort((a, b) => Math.max(b.busyMs, b.sampledMs) - Math.max(a.busyMs, a.sampledMs));
}

interface CpuProfile {
  nodes: (ProfileNode & { children?: number[] })[];
  samples: number[];
  timeDeltas: number[];
}

/** Top self-time functions of a V8 .cpuprofile (node --cpu-prof), and the sampled non-idle total. */
export function summariseCpuProfile(profile: CpuProfile, topN = 25): { sampledMs: number; top: FunctionTime[] } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  addSelfTimes(self, nodes, profile.samples, profile.timeDeltas);
  const sampledMs = [...self].filter(([n]) => n !== '(idle)' && n !== '(root)').reduce((s, [, ms]) => s + ms, 0);
  return { sampledMs, top: topOf(self, topN) };
}

/** Plain-text report of both summaries. */
export function formatProfileReport(threads: ThreadSummary[], servers: { thread: number; sampledMs: number; top: FunctionTime[] }[], minBusyMs = 50): string {
  const lines: string[] = [];
  for (const t of threads) {
    if (Math.max(t.busyMs, t.sampledMs) < minBusyMs) continue;
    lines.push(`\n## ${t.process} / ${t.thread} [${t.role}] pid ${t.pid} tid ${t.tid}: busy ${t.busyMs.toFixed(0)} ms, JS-sampled ${t.sampledMs.toFixed(0)} ms`);
    if (t.top.length) lines.push('  JavaScript self time:');
    for (const f of t.top) lines.push(`  ${f.ms.toFixed(1).padStart(9)} ms  ${f.name}`);
    if (t.tasks.length) lines.push('  top-level tasks by origin:');
    for (const f of t.tasks) lines.push(`  ${f.ms.toFixed(1).padStart(9)} ms  ${f.name}`);
  }
  for (const server of servers) {
    lines.push(`\n## server thread ${server.thread} (node --cpu-prof, whole server lifetime): sampled ${server.sampledMs.toFixed(0)} ms without (idle)`);
    for (const f of server.top) lines.push(`  ${f.ms.toFixed(1).padStart(9)} ms  ${f.name}`);
  }
  return lines.join('\n');
}
