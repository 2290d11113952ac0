import net from 'node:net';
import path from 'node:path';
import type { ClientVersion } from '../common/api/types';
import { chunkSizeProblem, DEFAULT_CHUNK_SIZE } from '../common/transfer/chunk-policy';
import { resolveAccountPolicy, type AccountPolicy } from './services/account-policy';
import { PREPARED_STATEMENTS_PER_CONNECTION } from './db/pg-prepared';
import { parseS3Location, type S3Location } from './storage/s3/s3-location';

/**
 * Typed server configuration. `configFromEnv` reads the process environment (used by main.ts);
 * tests build a `ServerConfig` directly so they can point it at a temp directory and port 0.
 */
/** Where the desktop's updater (electron-updater, generic provider) downloads the release's files. */
export const DESKTOP_RELEASE_PATH = '/desktop/releases/';

/** The documents pipeline's settings (issue 41; docs/documents.md). */
export interface DocumentOptions {
  /** DOCUMENT_WORKERS: conversions at once per server process, capped at the cores (default: the cores; 0: none). */
  workers?: number;
  /** DOCUMENT_MAX_BYTES: larger files are not converted (default 100 MiB). */
  maxBytes?: number;
  /** DOCUMENT_TIME_LIMIT_MS: a conversion's tools are killed past this (default 60 s). */
  timeLimitMs?: number;
  /** SOFFICE_PATH: the LibreOffice binary (default `soffice` on PATH). */
  soffice?: string;
  /** How often idle workers look for jobs other processes queued (default 2 s). */
  pollMs?: number;
}

export interface ServerConfig {
  /** The documents pipeline (Office renditions, text, first-page thumbnails). */
  documents?: DocumentOptions;
  port: number;
  host: string;
  /** SQLite file, stored blobs, upload chunks and temp files live here. */
  dataDir: string;
  /**
   * BLOB_STORE: unset = file bytes on local disk under dataDir; `s3://bucket?endpoint=…&region=…` =
   * in that S3-compatible object store (storage/s3/s3-location.ts; docs/object-store.md).
   */
  blobStore?: S3Location;
  /** The built web app; missing → API only (with a warning). */
  staticDir: string;
  /** Database location (DB_URL). Unset → SQLite file in dataDir; `postgres://…` → PostgreSQL (db/database.ts). */
  dbUrl: string | undefined;
  /** PG_POOL_SIZE: connections this process keeps to PostgreSQL (default 10; unused on SQLite). */
  dbPoolSize?: number;
  /** PG_PREPARED_STATEMENTS: named prepared statements kept per PostgreSQL connection (default 100; 0 = none; db/pg-prepared.ts). */
  dbPreparedStatements?: number;
  /**
   * LOCK_LEASE_MS: how long a server process that stops answering (frozen) keeps its PostgreSQL locks,
   * and its open transactions (default 10 s; db/advisory-locks.ts). Unused on SQLite.
   */
  lockLeaseMs?: number;
  /** Prefix for user avatar URLs (spec §3: avatar is prefixed with the base URL). '' = same origin. */
  publicBaseUrl: string;
  /**
   * The chunk size of every upload, announced in UploadConfig, and so of every fingerprint
   * (common/transfer/chunk-policy.ts). Changing it is safe: stored blobs are fingerprinted again.
   */
  chunkSize: number;
  maxFileSize: number;
  /** Quota given to seeded accounts, bytes. */
  defaultQuota: number;
  sessionTtlMs: number;
  captchaTtlMs: number;
  uploadExpiryMs: number;
  /** How often expired uploads, captchas and sessions are removed; 0 = never (tests call it by hand). */
  sweepIntervalMs: number;
  /** Days an entry stays in the recycle bin before the sweeper purges it for good (RECYCLE_RETENTION_DAYS). */
  recycleRetentionDays: number;
  /**
   * DRIVE_TEST_HOOKS=1: every issued captcha is appended as {captchaId, answer} to
   * `${dataDir}/test-outbox/captcha.jsonl` so integration and end-to-end tests can log in.
   * Refused when NODE_ENV=production.
   */
  testHooks: boolean;
  /**
   * DRIVE_TEST_CRASH_POINT (only with DRIVE_TEST_HOOKS=1): the process SIGKILLs itself at this named
   * point of a chunk write or merge (CRASH_POINTS in services/upload-service.ts), for crash tests.
   */
  crashPoint?: string;
  /**
   * DRIVE_TEST_CRASH_SIGNAL (with DRIVE_TEST_CRASH_POINT): SIGKILL (default) or SIGSTOP. SIGSTOP freezes
   * the process at the point, holding what it holds (locks, a half-done merge), until it gets SIGCONT:
   * the frozen-process fault test.
   */
  crashSignal?: 'SIGKILL' | 'SIGSTOP';
  /**
   * DRIVE_TEST_LISTENER_RECONNECT_MS (tests only, needs DRIVE_TEST_HOOKS=1): how long a lost event
   * listener waits before reconnecting (default 250 ms), so a test can make events inside the gap.
   */
  testListenerReconnectMs?: number;
  /** Server log (startup, warnings, errors); tests turn it off. */
  logger: boolean;
  /** One log line per request (LOG_REQUESTS=0 turns it off). */
  logRequests: boolean;
  /**
   * TRUST_PROXY: the addresses (or CIDR ranges, or proxy-addr's `loopback`) of the proxies in front,
   * e.g. the cluster's balancer. X-Forwarded-For/Proto/Host are believed only on connections from
   * them (Fastify's trustProxy, proxy-addr): the client's address for throttles and the action log,
   * https for the Secure cookie, the host for the Origin check. Empty: no proxy, the headers are ignored.
   */
  trustProxy: readonly string[];
  /** Login throttling, lock-out, password expiry, SMS limits; unset fields take DEFAULT_ACCOUNT_POLICY. */
  accounts?: Partial<AccountPolicy>;
  /** The desktop release offered by /api/clientVersion/get; unset = none published. */
  desktopRelease?: ClientVersion;
  /**
   * DESKTOP_RELEASE_DIR: the folder of the desktop release's files (electron-builder's output:
   * latest*.yml and the installers), served at DESKTOP_RELEASE_PATH for the desktop's updater.
   */
  desktopReleaseDir?: string;
  /** Days the action log keeps a record before the sweeper prunes it (AUDIT_RETENTION_DAYS, default 180). */
  auditRetentionDays?: number;
  /**
   * Hex key of the action log's hash chain (AUDIT_CHAIN_KEY). Unset: `DATA_DIR/audit-chain.key`,
   * created on first start (storage/chain-key.ts).
   */
  auditChainKey?: string;
  /**
   * AUDIT_CHECKPOINT_DIR: where signed checkpoints of the chains' heads are appended (one file per
   * UTC day); unset: they go to the server log only (and to admins who download one).
   */
  auditCheckpointDir?: string;
  /** AUDIT_CHECKPOINT_INTERVAL_MS: how often moved heads are checkpointed (default 15 min; 0 = never). */
  auditCheckpointIntervalMs?: number;
}

const GiB = 1024 * 1024 * 1024;

export const DEFAULTS = {
  chunkSize: DEFAULT_CHUNK_SIZE,
  maxFileSize: 10 * GiB,
  defaultQuota: 10 * GiB,
  sessionTtlMs: 7 * 24 * 3600 * 1000,
  captchaTtlMs: 300 * 1000,
  sweepIntervalMs: 3600 * 1000,
  recycleRetentionDays: 30,
  auditRetentionDays: 180,
  auditCheckpointIntervalMs: 15 * 60 * 1000,
  lockLeaseMs: 10_000,
} as const;

function crashSignalFromEnv(value: string | undefined): ServerConfig['crashSignal'] {
  if (!value) return undefined;
  if (value === 'SIGKILL' || value === 'SIGSTOP') return value;
  throw new Error(`DRIVE_TEST_CRASH_SIGNAL must be SIGKILL or SIGSTOP, got '${value}'`);
}

function intFromEnv(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${value}'`);
  return n;
}

/**
 * Refuses test hooks in production (they would leak captcha answers to the data directory), and a
 * chunk size outside the chunk policy's bounds (clients would hash at another size than chunk/exist accepts).
 */
export function assertSafeConfig(config: ServerConfig, nodeEnv: string | undefined = process.env.NODE_ENV): void {
  const chunkSize = chunkSizeProblem(config.chunkSize);
  if (chunkSize) throw new Error(`CHUNK_SIZE: ${chunkSize}`);
  if (config.testHooks && nodeEnv === 'production') {
    throw new Error('DRIVE_TEST_HOOKS=1 must not be used with NODE_ENV=production');
  }
  if (config.crashPoint && !config.testHooks) {
    throw new Error('DRIVE_TEST_CRASH_POINT needs DRIVE_TEST_HOOKS=1');
  }
  if (config.crashSignal && !config.crashPoint) {
    throw new Error('DRIVE_TEST_CRASH_SIGNAL needs DRIVE_TEST_CRASH_POINT');
  }
  if (config.testListenerReconnectMs !== undefined && !config.testHooks) {
    throw new Error('DRIVE_TEST_LISTENER_RECONNECT_MS needs DRIVE_TEST_HOOKS=1');
  }
}

function accountsFromEnv(env: NodeJS.ProcessEnv): AccountPolicy {
  const d = resolveAccountPolicy(undefined);
  const forced = env.FORCE_NETWORK_ENV || undefined;
  if (forced !== undefined && forced !== 'public' && forced !== 'internal') {
    throw new Error(`FORCE_NETWORK_ENV must be 'public' or 'internal', got '${forced}'`);
  }
  return resolveAccountPolicy({
    loginSlowAfter: intFromEnv(env.LOGIN_SLOW_AFTER, d.loginSlowAfter, 'LOGIN_SLOW_AFTER'),
    loginAddressSlowAfter: intFromEnv(env.LOGIN_ADDRESS_SLOW_AFTER, d.loginAddressSlowAfter, 'LOGIN_ADDRESS_SLOW_AFTER'),
    loginDelayBaseMs: intFromEnv(env.LOGIN_DELAY_BASE_MS, d.loginDelayBaseMs, 'LOGIN_DELAY_BASE_MS'),
    loginDelayMaxMs: intFromEnv(env.LOGIN_DELAY_MAX_MS, d.loginDelayMaxMs, 'LOGIN_DELAY_MAX_MS'),
    loginLockAfter: intFromEnv(env.LOGIN_LOCK_AFTER, d.loginLockAfter, 'LOGIN_LOCK_AFTER'),
    loginFailureWindowMs: intFromEnv(env.LOGIN_FAILURE_WINDOW_MS, d.loginFailureWindowMs, 'LOGIN_FAILURE_WINDOW_MS'),
    passwordExpiryDays: intFromEnv(env.PASSWORD_EXPIRY_DAYS, d.passwordExpiryDays, 'PASSWORD_EXPIRY_DAYS'),
    smsCodeTtlMs: intFromEnv(env.SMS_CODE_TTL_MS, d.smsCodeTtlMs, 'SMS_CODE_TTL_MS'),
    smsResendMs: intFromEnv(env.SMS_RESEND_MS, d.smsResendMs, 'SMS_RESEND_MS'),
    smsPerPhonePerHour: intFromEnv(env.SMS_PER_PHONE_PER_HOUR, d.smsPerPhonePerHour, 'SMS_PER_PHONE_PER_HOUR'),
    smsPerAddressPerHour: intFromEnv(env.SMS_PER_ADDRESS_PER_HOUR, d.smsPerAddressPerHour, 'SMS_PER_ADDRESS_PER_HOUR'),
    smsMaxAttempts: intFromEnv(env.SMS_MAX_ATTEMPTS, d.smsMaxAttempts, 'SMS_MAX_ATTEMPTS'),
    forceNetworkEnv: forced,
  });
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as a list of addresses, CIDR ranges or proxy-addr keywords, comma-separated. The old
 * `1` (believe X-Forwarded-* from whoever connects) is refused: any client could then choose the
 * address the login throttle counts and the action log records.
 */
export function trustedProxiesFromEnv(value: string | undefined): string[] {
  if (!value) return [];
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const prefixOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (net.isIPv6(address!) ? 128 : 32));
    if (PROXY_KEYWORDS.has(entry) || (net.isIP(address!) && prefixOk && extra === undefined)) continue;
    throw new Error(
      `TRUST_PROXY lists the addresses of the proxies in front (e.g. 127.0.0.1 or 10.0.0.0/8, or 'loopback'), got '${entry}'` +
        (entry === '1' ? ": '1' would believe X-Forwarded-* from any client" : ''),
    );
  }
  return entries;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const config: ServerConfig = {
    port: intFromEnv(env.PORT, 8080, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    blobStore: env.BLOB_STORE ? parseS3Location(env.BLOB_STORE) : undefined,
    staticDir: path.resolve(env.STATIC_DIR || './dist'),
    dbUrl: env.DB_URL || undefined,
    dbPoolSize: intFromEnv(env.PG_POOL_SIZE, 10, 'PG_POOL_SIZE'),
    dbPreparedStatements: intFromEnv(env.PG_PREPARED_STATEMENTS, PREPARED_STATEMENTS_PER_CONNECTION, 'PG_PREPARED_STATEMENTS'),
    lockLeaseMs: intFromEnv(env.LOCK_LEASE_MS, DEFAULTS.lockLeaseMs, 'LOCK_LEASE_MS'),
    publicBaseUrl: env.PUBLIC_BASE_URL || '',
    chunkSize: intFromEnv(env.CHUNK_SIZE, DEFAULTS.chunkSize, 'CHUNK_SIZE'),
    maxFileSize: intFromEnv(env.MAX_FILE_SIZE, DEFAULTS.maxFileSize, 'MAX_FILE_SIZE'),
    defaultQuota: intFromEnv(env.DEFAULT_QUOTA, DEFAULTS.defaultQuota, 'DEFAULT_QUOTA'),
    sessionTtlMs: DEFAULTS.sessionTtlMs,
    captchaTtlMs: DEFAULTS.captchaTtlMs,
    uploadExpiryMs: intFromEnv(env.UPLOAD_EXPIRY_MS, 7 * 24 * 3600 * 1000, 'UPLOAD_EXPIRY_MS'),
    sweepIntervalMs: intFromEnv(env.SWEEP_INTERVAL_MS, DEFAULTS.sweepIntervalMs, 'SWEEP_INTERVAL_MS'),
    recycleRetentionDays: intFromEnv(env.RECYCLE_RETENTION_DAYS, DEFAULTS.recycleRetentionDays, 'RECYCLE_RETENTION_DAYS'),
    testHooks: env.DRIVE_TEST_HOOKS === '1',
    logger: true,
    logRequests: env.LOG_REQUESTS !== '0',
    trustProxy: trustedProxiesFromEnv(env.TRUST_PROXY),
    crashPoint: env.DRIVE_TEST_CRASH_POINT || undefined,
    crashSignal: crashSignalFromEnv(env.DRIVE_TEST_CRASH_SIGNAL),
    testListenerReconnectMs: env.DRIVE_TEST_LISTENER_RECONNECT_MS ? intFromEnv(env.DRIVE_TEST_LISTENER_RECONNECT_MS, 0, 'DRIVE_TEST_LISTENER_RECONNECT_MS') : undefined,
    accounts: accountsFromEnv(env),
    auditRetentionDays: intFromEnv(env.AUDIT_RETENTION_DAYS, DEFAULTS.auditRetentionDays, 'AUDIT_RETENTION_DAYS'),
    auditChainKey: env.AUDIT_CHAIN_KEY || undefined,
    auditCheckpointDir: env.AUDIT_CHECKPOINT_DIR ? path.resolve(env.AUDIT_CHECKPOINT_DIR) : undefined,
    auditCheckpointIntervalMs: intFromEnv(env.AUDIT_CHECKPOINT_INTERVAL_MS, DEFAULTS.auditCheckpointIntervalMs, 'AUDIT_CHECKPOINT_INTERVAL_MS'),
    desktopRelease: env.DESKTOP_VERSION_NAME
      ? {
          versionName: env.DESKTOP_VERSION_NAME,
          versionDesc: env.DESKTOP_VERSION_DESC || '',
          isForce: env.DESKTOP_VERSION_FORCE === '1',
          ...(env.DESKTOP_RELEASE_DIR ? { updateUrl: DESKTOP_RELEASE_PATH } : {}),
        }
      : undefined,
    desktopReleaseDir: env.DESKTOP_RELEASE_DIR || undefined,
    documents: {
      workers: env.DOCUMENT_WORKERS ? intFromEnv(env.DOCUMENT_WORKERS, 0, 'DOCUMENT_WORKERS') : undefined,
      maxBytes: env.DOCUMENT_MAX_BYTES ? intFromEnv(env.DOCUMENT_MAX_BYTES, 0, 'DOCUMENT_MAX_BYTES') : undefined,
      timeLimitMs: env.DOCUMENT_TIME_LIMIT_MS ? intFromEnv(env.DOCUMENT_TIME_LIMIT_MS, 0, 'DOCUMENT_TIME_LIMIT_MS') : undefined,
      soffice: env.SOFFICE_PATH || undefined,
    },
  };
  assertSafeConfig(config, env.NODE_ENV);
  return config;
}
