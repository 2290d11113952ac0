/**
 * A plain static file server for the browser-download bench's baseline (issue 43): the files of one
 * directory, as attachments, with nothing of the app (no session, no access decision, no database),
 * by @fastify/static on Fastify, the same runtime and the same machine as the app's server.
 *
 * Run as its own process, so its CPU is counted apart from the bench's:
 *   node --import tsx tests/bench/lib/static-file-server.ts <dir>
 * It prints `listening <port>` once it accepts connections and stops on SIGTERM.
 */
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { LARGE_READ_BYTES } from '../../../server/storage/chunked-read-stream';

const root = process.argv[2];
if (!root) {
  console.error('usage: static-file-server.ts <dir>');
  process.exit(2);
}

const app = Fastify({ logger: false });
// Read as the app's downloads read a blob (1 MiB at a time; @fastify/static's default is 64 KiB): the
// baseline then differs from the app by what the app adds, not by its read size.
await app.register(fastifyStatic, { root, serve: false, highWaterMark: LARGE_READ_BYTES });
// As an attachment, so Chromium saves the file as it does the app's 下载. (reply.download of
// @fastify/static 9 answered 404 for a file sendFile serves; the bench's names are plain ASCII.)
app.get<{ Params: { name: string } }>('/files/:name', (request, reply) =>
  reply.header('content-disposition', `attachment; filename="${request.params.name}"`).sendFile(request.params.name),
);

process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
