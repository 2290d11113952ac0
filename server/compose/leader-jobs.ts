import { DEFAULTS, type ServerConfig } from '../config';
import type { Leadership } from '../services/cluster/ports';
import type { FingerprintUpgradeReport } from '../services/fingerprint-upgrade';
import type { Audit } from './audit';
import type { Files } from './files';
import type { Uploads } from './uploads';

export interface LeaderJobsDeps {
  config: ServerConfig;
  sweeper: { run(intervalMs: number, signal: AbortSignal): Promise<void> };
  audit: Audit;
  files: Files;
  uploads: Uploads;
}

/**
 * The periodic jobs: they run in the leading process only (one at a time; each is safe if two did
 * run). Resolves the returned promise with the fingerprint upgrade's report once a lead has run it
 * (null when the server closes first).
 */
export function runLeaderJobs(leadership: Leadership, { config, sweeper, audit, files, uploads }: LeaderJobsDeps): { fingerprintUpgrade: Promise<FingerprintUpgradeReport | null>; closed(): void } {
  leadership.whileLeader((signal) => sweeper.run(config.sweepIntervalMs, signal));
  leadership.whileLeader((signal) => audit.checkpoints.run(config.auditCheckpointIntervalMs ?? DEFAULTS.auditCheckpointIntervalMs, signal));
  // Keyword re-scans of extracted texts (a job in the database: resumed by whichever process leads).
  leadership.whileLeader((signal) => files.contentScans.run(signal));
  let upgraded: (report: FingerprintUpgradeReport | null) => void = () => undefined;
  const fingerprintUpgrade = new Promise<FingerprintUpgradeReport | null>((resolve) => (upgraded = resolve));
  // Each lead runs it (a blob leaves the stale list as it is done: a later lead finds what is left).
  leadership.whileLeader(async (signal) => {
    const report = await uploads.upgradeFingerprints(signal);
    if (report) upgraded(report);
  });
  return { fingerprintUpgrade, closed: () => upgraded(null) };
}
