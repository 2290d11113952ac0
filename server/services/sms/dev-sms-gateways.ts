import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { SmsGateway } from './sms-gateway';

/**
 * Test hook gateway (DRIVE_TEST_HOOKS=1 only): appends {phone, text, sentAt} lines to a file so
 * integration and end-to-end tests can read the codes, like the captcha outbox.
 */
export class OutboxSmsGateway implements SmsGateway {
  /** Tests read every message: it stands for a provider that delivers. */
  readonly delivers = true;

  constructor(private readonly file: string) {}

  async send(phone: string, text: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    await fsp.mkdir(path.dirname(this.file), { recursive: true });
    await fsp.appendFile(this.file, JSON.stringify({ phone, text, sentAt: Date.now() }) + '\n');
  }
}

/** Development gateway without test hooks: the message goes to the server log (never use in production). */
export class LogSmsGateway implements SmsGateway {
  readonly delivers = false;

  constructor(private readonly log: (obj: object, msg: string) => void) {}

  send(phone: string, text: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.log({ phone, text }, 'SMS (development gateway: not sent, logged)');
    return Promise.resolve();
  }
}
