/**
 * The load bench's HTTP load tool: Debian's `wrk` (C, event loop per thread: it drives hundreds of
 * connections from one core, where a Node load tool would compete with the servers for the same 2 cores),
 * scripted in Lua to send each request with one of many real session cookies and to count as an error
 * every answer that is not a 200 carrying the expected JSON, not only socket errors and 4xx/5xx.
 *
 * wrk's Lua cannot tell its connections apart, so users rotate per request: with C connections and C
 * users (split between wrk's threads), C requests of C different sessions are in flight at any time.
 * `ratePerSecond` paces the requests (the same offered load whatever the server's speed: each thread sends
 * on a fixed schedule, measured with gettimeofday through LuaJIT's FFI); 0 = closed loop, every connection
 * sends its next request when the answer arrives (the server's capacity).
 */
import { spawn, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

export interface WrkRequest {
  method: 'POST' | 'GET';
  path: string;
  /** JSON body (POST). */
  body?: string;
  /** Headers every request carries (besides Cookie). */
  headers: Record<string, string>;
  /** An answer counts as good only with status 200 and this text in its body. */
  expectInBody: string;
}

export interface WrkRun {
  url: string;
  /** One `sid=...` per user. */
  cookies: string[];
  connections: number;
  seconds: number;
  /** Requests per second over all connections; 0 = closed loop. */
  ratePerSecond: number;
  threads?: number;
  request: WrkRequest;
  /** Where the script and the cookie list are written. */
  workDir: string;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Socket errors (connect, read, write), timeouts and answers that were not a 200 with the expected body. */
  errors: number;
  errorDetail: { connect: number; read: number; write: number; timeout: number; status: number; badAnswer: number };
}

export function hasWrk(): boolean {
  return spawnSync('which', ['wrk']).status === 0;
}

const luaString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** The Lua script: request(), response() and done() (+ delay() when paced). */
function script(run: WrkRun, cookieFile: string, threads: number): string {
  const headers = Object.entries({ ...run.request.headers, ...(run.request.body ? { 'Content-Type': 'application/json' } : {}) })
    .map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`)
    .join(', ');
  const paced = run.ratePerSecond > 0;
  return `
local thread_count = 0
local threads = {}
function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end

local requests = {}
local next_user = 0
bad = 0
function init(args)
  local i = 0
  for line in io.lines(${luaString(cookieFile)}) do
    if i % ${threads} == id then
      local headers = { ${headers} }
      headers["Cookie"] = line
      table.insert(requests, wrk.format(${luaString(run.request.method)}, ${luaString(run.request.path)}, headers, ${run.request.body ? luaString(run.request.body) : 'nil'}))
    end
    i = i + 1
  end
end

function request()
  next_user = next_user % #requests + 1
  return requests[next_user]
end

function response(status, headers, body)
  if status ~= 200 or body == nil or not string.find(body, ${luaString(run.request.expectInBody)}, 1, true) then
    bad = bad + 1
  end
end
${paced ? `
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_usec; } load_timeval;
int gettimeofday(load_timeval *tv, void *tz);
]]
local tv = ffi.new("load_timeval")
local function now_ms()
  ffi.C.gettimeofday(tv, nil)
  return tonumber(tv.tv_sec) * 1000 + tonumber(tv.tv_usec) / 1000
end
local interval_ms = 1000 * ${threads} / ${run.ratePerSecond}
local next_slot = nil
function delay()
  local now = now_ms()
  if next_slot == nil then next_slot = now end
  next_slot = next_slot + interval_ms
  local wait = next_slot - now
  if wait < 0 then return 0 end
  return wait
end
` : ''}
function done(summary, latency, requests)
  local bad_total = 0
  for _, t in ipairs(threads) do bad_total = bad_total + (t:get("bad") or 0) end
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"bad":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout, bad_total,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;
}

/** Runs wrk once; resolves with its figures (rejects when wrk fails or prints no result). */
export async function runWrk(run: WrkRun, signal?: AbortSignal): Promise<WrkResult> {
  const threads = run.threads ?? 2;
  await fsp.mkdir(run.workDir, { recursive: true });
  const cookieFile = path.join(run.workDir, 'cookies.txt');
  const scriptFile = path.join(run.workDir, 'load.lua');
  await fsp.writeFile(cookieFile, run.cookies.join('\n') + '\n');
  await fsp.writeFile(scriptFile, script(run, cookieFile, threads));
  const child = spawn('wrk', ['-t', String(threads), '-c', String(run.connections), '-d', `${run.seconds}s`, '--timeout', '10s', '-s', scriptFile, run.url + run.request.path], {
    stdio: ['ignore', 'pipe', 'pipe'],
    signal,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}): ${err || out}`);
  const r = JSON.parse(line.slice('WRK_JSON '.length)) as Record<string, number>;
  const seconds = r.durationUs! / 1e6;
  const errorDetail = { connect: r.connect!, read: r.read!, write: r.write!, timeout: r.timeout!, status: r.status!, badAnswer: r.bad! };
  return {
    requests: r.requests!,
    seconds,
    rps: r.requests! / seconds,
    p50Ms: r.p50! / 1000,
    p90Ms: r.p90! / 1000,
    p99Ms: r.p99! / 1000,
    maxMs: r.max! / 1000,
    // status (≥ 400) answers are also counted in badAnswer.
    errors: errorDetail.connect + errorDetail.read + errorDetail.write + errorDetail.timeout + errorDetail.badAnswer,
    errorDetail,
  };
}
