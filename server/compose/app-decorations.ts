import type { LazyValidators } from '../http/lazy-validators';
import type { ActionLogCheckpointer } from '../services/action-log/checkpointer';
import type { FingerprintUpgradeReport } from '../services/fingerprint-upgrade';
import type { ContentTextService } from '../services/content/content-text-service';
import type { Notices } from '../services/notices';
import type { Documents } from './documents';
import type { RecoveryReport } from '../services/recovery';
import type { Sweeper } from '../services/sweeper';
import type { ByteStore } from '../storage/byte-store';

/** What server/app.ts decorates the app with, for tests and the process's own jobs. */
declare module 'fastify' {
  interface FastifyInstance {
    /** Clean-up of expired uploads, captchas and sessions; tests call `sweeper.sweepOnce()`. */
    sweeper: Sweeper;
    /** Signed checkpoints of the action log's heads; tests call `auditCheckpoints.checkpointOnce()`. */
    auditCheckpoints: ActionLogCheckpointer;
    /** Where file bytes live (storage/byte-store.ts): tests look into it through the same interface. */
    byteStore: ByteStore;
    /** What startup recovery found and repaired in the store (null: skipped, other processes were live). */
    storeRecovery: RecoveryReport | null;
    /** Notices (issue 16); `notices.events` is the port the sharing work calls. */
    notices: Notices;
    /** Extracted texts of blobs (search inside files): docrend's pipeline and tests put texts here. */
    contentTexts: ContentTextService;
    /** The documents pipeline (issue 41): tests wait for its jobs and look at them. */
    documents: Documents;
    /** The routes' schema validators, each compiled at its route's first request (http/lazy-validators.ts). */
    validators: Pick<LazyValidators, 'compiled' | 'registered' | 'compileAll'>;
    /** The background re-fingerprinting of stale blobs by this process as leader (null: shut down before it led or finished). */
    fingerprintUpgrade: Promise<FingerprintUpgradeReport | null>;
  }
}

export {};
