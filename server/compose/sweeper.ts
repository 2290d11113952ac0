import type { FastifyBaseLogger } from 'fastify';
import type { ClientOpRepository } from '../repositories/client-op-repository';
import type { Notices } from '../services/notices';
import { Sweeper } from '../services/sweeper';
import type { Accounts } from './accounts';
import type { Audit } from './audit';
import type { Documents } from './documents';
import type { Files } from './files';
import type { Sharing } from './sharing';
import type { Uploads } from './uploads';

export interface SweeperDeps {
  log: FastifyBaseLogger;
  accounts: Accounts;
  files: Files;
  uploads: Uploads;
  audit: Audit;
  notices: Notices;
  sharing: Sharing;
  clientOps: ClientOpRepository;
  documents: Documents;
  /** WebDAV locks past their timeout (their product locks given back). */
  davLocks?: { sweep(now: number): Promise<void> };
}

/** The periodic clean-up of what expires, across the domains (services/sweeper.ts lists what). */
export function buildSweeper({ log, accounts, files, uploads, audit, notices, sharing, clientOps, documents, davLocks }: SweeperDeps): Sweeper {
  return new Sweeper({
    uploads: uploads.uploads,
    store: uploads.storeSweep,
    captchas: accounts.captchaRepo,
    sessions: accounts.sessions,
    accounts: { throttle: accounts.throttle, smsCodes: accounts.smsCodes },
    files: { trash: files.trash, texts: files.texts, clientOps },
    log: (err) => log.error({ err }, 'sweep failed'),
    audit: { actionLogs: audit.actionLogs, retentionMs: audit.retentionMs },
    notices: notices.fileMessages,
    extra: {
      async sweep(now) {
        await sharing.sweep(now);
        // Jobs whose blob went by a path that did not forget them (their rendition and text go too).
        await documents.service.sweepOrphans();
      },
    },
    usage: audit.usage,
    davLocks,
  });
}
