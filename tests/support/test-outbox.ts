import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What a server under DRIVE_TEST_HOOKS=1 writes to DATA_DIR/test-outbox/: captcha answers and SMS messages. */
export interface OutboxRecords {
  captcha: { captchaId: string; answer: string };
  sms: { phone: string; text: string };
}

/**
 * The records of outbox `name` written so far, in order. Each is one line appended whole; a line the
 * server is still writing (no newline yet) is left out, never parsed half.
 */
export function outboxRecords<K extends keyof OutboxRecords>(dataDir: string, name: K): OutboxRecords[K][] {
  const file = path.join(dataDir, 'test-outbox', `${name}.jsonl`);
  if (!existsSync(file)) return [];
  // The last piece is '' after a whole line, or the part of one not yet written.
  return readFileSync(file, 'utf8').split('\n').slice(0, -1).map((line) => JSON.parse(line) as OutboxRecords[K]);
}
