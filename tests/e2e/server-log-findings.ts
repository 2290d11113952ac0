/**
 * What the e2e server's log says went wrong, for the run's output: the log itself is deleted with the
 * test data, and a rare failure (a service worker that never took control, a lazy chunk that never
 * came) once left no clue. Error-level lines (the server's unexpected failures; an HTTP 500 that spec §8
 * prescribes, such as 下载次数已超过限制, is an answer, not an error) and missing assets (404 under
 * /assets/: a chunk or stylesheet a page asked for and did not get).
 */
import { existsSync, readFileSync } from 'node:fs';

interface LogLine {
  level?: number;
  reqId?: string;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  err?: { message?: string };
}

const MAX_FINDINGS = 50;

export function serverLogFindings(logFile: string): string[] {
  if (!existsSync(logFile)) return [];
  const urls = new Map<string, string>();
  const findings: string[] = [];
  for (const text of readFileSync(logFile, 'utf8').split('\n')) {
    if (!text.startsWith('{')) continue;
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      continue;
    }
    if (line.reqId && line.req?.url) urls.set(line.reqId, `${line.req.method ?? ''} ${line.req.url}`);
    const status = line.res?.statusCode;
    const url = (line.reqId && urls.get(line.reqId)) ?? '';
    if ((line.level ?? 0) >= 50) findings.push(`error: ${line.msg ?? ''} ${line.err?.message ?? ''} ${url}`.trim());
    else if (status === 404 && url.includes(' /assets/')) findings.push(`${status} ${url}`);
  }
  return findings.length > MAX_FINDINGS ? [...findings.slice(0, MAX_FINDINGS), `… and ${findings.length - MAX_FINDINGS} more`] : findings;
}
