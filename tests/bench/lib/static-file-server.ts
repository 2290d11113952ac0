/**
 * A plain static file server for the browser-download bench's baseline (issue 43): the files of one
 * directory as attachments, with nothing of the app (no session, no access decision, no database, no
 * framework): Node's http server piping the file, on the same runtime and the same machine as the
 * app's server. It reads the file as the app's downloads read a blob, 1 MiB at a time (a file
 * stream's default is 64 KiB), so the baseline differs from the app by what the app adds, not by its
 * read size.
 *
 * Run as its own process, so its CPU is counted apart from the bench's:
 *   node --import tsx tests/bench/lib/static-file-server.ts <dir>
 * It prints `listening <port>` once it accepts connections and stops on SIGTERM.
 */
import { createReadStream, promises as fsp } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { LARGE_READ_BYTES } from '../../../server/storage/chunked-read-stream';

const root = process.argv[2];
if (!root) {
  console.error('usage: static-file-server.ts <dir>');
  process.exit(2);
}

async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/files\//, ''));
  const file = path.join(root!, path.basename(name));
  const stat = await fsp.stat(file).catch(() => null);
  if (req.method !== 'GET' || !stat?.isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': stat.size,
    // As an attachment, so Chromium saves the file as it does the app's 下载 (the bench's names are ASCII).
    'content-disposition': `attachment; filename="${path.basename(name)}"`,
  });
  await pipeline(createReadStream(file, { highWaterMark: LARGE_READ_BYTES }), res);
}

const server = http.createServer((req, res) => {
  serve(req, res).catch(() => res.destroy());
});
process.on('SIGTERM', () => {
  server.closeAllConnections(); // Chromium keeps its connection open
  server.close(() => process.exit(0));
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});
