/**
 * `npm run replay -- queue.json --server URL [--files DIR] [--user admin --password P --data-dir DIR]
 *                   [--cookie 'sid=...'] [--timeout SECONDS]`
 *
 * Replays an exported transfer queue with the real engine under Node and prints one line per item
 * and a summary. Login: either a session cookie (`--cookie`), or a user and password with the
 * captcha answered from the server's test outbox (server started with DRIVE_TEST_HOOKS=1; give its
 * DATA_DIR with `--data-dir`, or the outbox file itself with `--captcha-outbox`).
 * Exit code: 0 when every replayed item ended 'done', 1 otherwise, 2 on a usage error.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { captchaOutboxOf, createCookieFetch, loginWithOutbox } from './node-runtime';
import { formatReplay, parseQueueExport, replayQueue } from './replay';

const USAGE =
  'usage: npm run replay -- queue.json --server URL [--files DIR] ' +
  "[--cookie 'sid=...' | --user NAME --password P (--data-dir DIR | --captcha-outbox FILE)] [--timeout SECONDS]";

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        server: { type: 'string' },
        files: { type: 'string' },
        user: { type: 'string' },
        password: { type: 'string' },
        cookie: { type: 'string' },
        'data-dir': { type: 'string' },
        'captcha-outbox': { type: 'string' },
        timeout: { type: 'string', default: '600' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const queueFile = positionals[0];
  const timeoutSeconds = Number(values.timeout);
  if (!queueFile || !values.server || !(timeoutSeconds > 0)) {
    console.error(USAGE);
    return 2;
  }
  const queue = parseQueueExport(await fsp.readFile(queueFile, 'utf8'));
  const jar = createCookieFetch(values.cookie ?? '');
  if (!values.cookie) {
    const outbox = values['captcha-outbox'] ?? (values['data-dir'] ? captchaOutboxOf(values['data-dir']) : undefined);
    if (!values.user || !values.password || !outbox) {
      console.error(`give --cookie, or --user, --password and --data-dir (or --captcha-outbox)\n${USAGE}`);
      return 2;
    }
    await loginWithOutbox(jar, { serverUrl: values.server, username: values.user, password: values.password, captchaOutbox: outbox });
  }
  const filesDir = path.resolve(values.files ?? path.dirname(queueFile));
  console.log(`replaying ${queue.items.length} item(s) from ${queueFile} against ${values.server}, files from ${filesDir}`);
  const result = await replayQueue({ queue, serverUrl: values.server, filesDir, jar, timeoutMs: timeoutSeconds * 1000 });
  for (const line of formatReplay(result)) console.log(line);
  return result.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`replay failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
