import type { FastifyInstance } from 'fastify';
import { BatchUploadRepository } from '../repositories/batch-upload-repository';
import { ChallengeRepository } from '../repositories/challenge-repository';
import { FingerprintUpgradeRepository } from '../repositories/fingerprint-upgrade-repository';
import { RecoveryRepository } from '../repositories/recovery-repository';
import type { UserRepository } from '../repositories/user-repository';
import { registerBatchUploadRoutes } from '../routes/batch-upload-routes';
import { registerTestRoutes } from '../routes/test-routes';
import { registerPreUploadRoutes } from '../routes/pre-upload-routes';
import { registerUploadRoutes } from '../routes/upload-routes';
import { BatchUploadService } from '../services/batch-upload-service';
import { CheckService } from '../services/check-service';
import { upgradeFingerprints, type FingerprintUpgradeReport } from '../services/fingerprint-upgrade';
import type { Notices } from '../services/notices';
import { recoverStore, type RecoveryReport } from '../services/recovery';
import { sweepStore, type StoreSweepResult } from '../services/store-sweep';
import { SecondUploadService } from '../services/second-upload-service';
import type { ExchangeService } from '../services/sharing/exchange-service';
import { CRASH_POINTS, UploadService, type CrashPoint } from '../services/upload-service';
import type { Locks } from '../services/locks';
import type { Base, Routed } from './base';
import type { Files } from './files';
import type { Storage } from './storage';

export interface Uploads extends Routed {
  uploads: UploadService;
  /** Small files in batches; WebDAV's small PUTs commit through it too. */
  batches: BatchUploadService;
  /** Content checks (sensitive words, blocked types) of what arrives. */
  checks: CheckService;
  /**
   * Re-fingerprints blobs stored before the tree chunk digest, in the background; resolves null
   * when stopped by `signal` or failed (logged).
   */
  upgradeFingerprints(signal: AbortSignal): Promise<FingerprintUpgradeReport | null>;
  /** What startup recovery found and repaired (null: skipped, other processes were live). */
  recovery: RecoveryReport | null;
  /** The sweeper's pass over the store (services/store-sweep.ts). */
  storeSweep: { sweep(now: number): Promise<StoreSweepResult> };
}

export interface UploadsDeps extends Base {
  storage: Storage;
  files: Files;
  users: UserRepository;
  notices: Notices;
  /** The exchange area's intercepted files, listed with the unprocessed ones. */
  exchange: ExchangeService;
  /** The server's locks (compose/locks.ts): uploads and chunks, across processes. */
  locks: Locks;
  /** Recovery removes what the documents pipeline made of blobs that are gone. */
  documents: { sweepOrphans(): Promise<number> };
}

/**
 * Chunked, second (instant) and batch uploads with their content checks. Building it first repairs
 * whatever a crash left half done in the stores, before any request can arrive.
 */
export async function buildUploads({ db, config, log, storage, files, users, notices, exchange, locks, documents }: UploadsDeps): Promise<Uploads> {
  const { repos } = files;
  const challenges = new ChallengeRepository(db);
  const recovery = new RecoveryRepository(db);
  const logs = { info: (obj: object, msg: string) => log.info(obj, msg), error: (obj: object, msg: string) => log.error(obj, msg) };
  const checks = new CheckService({
    repo: repos.checks,
    users,
    fileService: files.service,
    types: files.blockedTypes,
    onSensitiveHeld: notices.sensitiveHeld,
  });
  const crashPoint = config.testHooks ? (CRASH_POINTS as readonly string[]).find((p) => p === config.crashPoint) : undefined;
  if (config.crashPoint && !crashPoint) throw new Error(`unknown DRIVE_TEST_CRASH_POINT '${config.crashPoint}'`);
  const uploads = new UploadService({
    uploads: repos.uploads,
    users,
    fileService: files.service,
    chunks: storage.chunks,
    blobs: storage.blobs,
    challenges,
    types: files.blockedTypes,
    options: {
      chunkSize: config.chunkSize,
      maxFileSize: config.maxFileSize,
      uploadExpiryMs: config.uploadExpiryMs,
      crashPoint: crashPoint as CrashPoint | undefined,
      crashSignal: config.crashSignal,
    },
    locks,
  });
  const secondUploads = new SecondUploadService({
    uploads: repos.uploads,
    users,
    fileService: files.service,
    blobs: storage.blobs,
    challenges,
    types: files.blockedTypes,
    maxFileSize: config.maxFileSize,
  });
  const batches = new BatchUploadService({
    batches: new BatchUploadRepository(db),
    uploads: repos.uploads,
    fileService: files.service,
    blobs: storage.blobs,
    types: files.blockedTypes,
    chunkSize: config.chunkSize,
  });
  // Only when no other server process is live on the database: it would undo what they are doing.
  const recovered = await locks.join(() => recoverStore({ store: storage.store, uploads: repos.uploads, recovery, documents }, logs));
  if (!recovered) log.info('startup recovery of the data directory skipped: other server processes are live (a merge a dead process left is undone by the next merge of that upload)');
  return {
    uploads,
    batches,
    checks,
    recovery: recovered || null,
    storeSweep: { sweep: (now) => sweepStore({ store: storage.store, uploads: repos.uploads, recovery, uploadExpiryMs: config.uploadExpiryMs }, now) },
    upgradeFingerprints: (signal) =>
      upgradeFingerprints(new FingerprintUpgradeRepository(db), storage.blobs, config.chunkSize, signal, logs).catch((err: unknown) => {
        if (!signal.aborted) log.error({ err }, 'fingerprint upgrade failed');
        return null;
      }),
    routes(app: FastifyInstance) {
      registerUploadRoutes(app, uploads, config.chunkSize);
      registerPreUploadRoutes(app, secondUploads, checks, (caller) => exchange.intercepted(caller));
      registerBatchUploadRoutes(app, batches);
      if (config.testHooks) registerTestRoutes(app, storage.tmpDir, uploads);
    },
  };
}
