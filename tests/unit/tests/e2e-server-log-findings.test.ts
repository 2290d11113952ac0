/** The e2e run's report of its server log (tests/e2e/server-log-findings.ts): faults and missing assets, not answers. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { serverLogFindings } from '../../e2e/server-log-findings';

it('reports error lines and assets a page did not get, not the answers spec §8 gives as HTTP 500', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'drive-log-'));
  try {
    const file = path.join(dir, 'server.log');
    const line = (o: object) => JSON.stringify({ level: 30, ...o });
    writeFileSync(
      file,
      [
        '> cloud-drive@0.1.0 start', // npm's own output
        line({ reqId: 'r1', req: { method: 'GET', url: '/assets/NoticeEditor-abc.js' }, msg: 'incoming request' }),
        line({ reqId: 'r1', res: { statusCode: 404 }, msg: 'request completed' }),
        line({ reqId: 'r2', req: { method: 'POST', url: '/api/v2/shareLink/download' }, msg: 'incoming request' }),
        line({ reqId: 'r2', res: { statusCode: 500 }, msg: 'request completed' }),
        line({ reqId: 'r3', req: { method: 'GET', url: '/api/nope' }, msg: 'incoming request' }),
        line({ reqId: 'r3', res: { statusCode: 404 }, msg: 'request completed' }),
        JSON.stringify({ level: 50, reqId: 'r4', msg: 'request failed', err: { message: 'SQLITE_BUSY' } }),
      ].join('\n'),
    );
    expect(serverLogFindings(file)).toEqual(['404 GET /assets/NoticeEditor-abc.js', 'error: request failed SQLITE_BUSY']);
    expect(serverLogFindings(path.join(dir, 'missing.log'))).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
