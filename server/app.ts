import path from 'node:path';
import { promises as fsp } from 'node:fs';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { assertSafeConfig, DEFAULTS, type ServerConfig } from './config';
import { openDatabase } from './db/database';
import { installErrorHandler } from './http/error-handler';
import './http/fastify-types';
import { installSessionGuard } from './http/session-guard';
import { installRouteRegistry } from './http/route-registry';
import { installClientOps } from './http/client-ops';
import { installSecurityHeaders } from './http/security-headers';
import { installBodyEncodingGuard } from './http/body-encoding';
import { installReadableRefusals } from './http/readable-refusals';
import { installActionLog } from './http/action-hooks';
import { ActionLogRepository } from './repositories/action-log-repository';
import { DepartmentRepository } from './repositories/department-repository';
import { ActionLogService } from './services/action-log-service';
import { ActionLogQueryService } from './services/action-log-query-service';
import { registerActionLogRoutes } from './routes/action-log-routes';
import { TenantConfigRepository } from './repositories/tenant-config-repository';
import { TenantService } from './services/tenant-service';
import { DictService } from './services/dict-service';
import { registerTenantRoutes } from './routes/tenant-routes';
import { registerDictRoutes } from './routes/dict-routes';
import { loadChainKey } from './storage/chain-key';
import { ClientOpRepository } from './repositories/client-op-repository';
import { CaptchaRepository } from './repositories/captcha-repository';
import { FileRepository } from './repositories/file-repository';
import { SessionRepository } from './repositories/session-repository';
import { TenantRepository } from './repositories/tenant-repository';
import { UploadRepository } from './repositories/upload-repository';
import { ChallengeRepository } from './repositories/challenge-repository';
import { CheckRepository } from './repositories/check-repository';
import { RecoveryRepository } from './repositories/recovery-repository';
import { registerTestRoutes } from './routes/test-routes';
import { registerPreUploadRoutes } from './routes/pre-upload-routes';
import { BlockedTypes } from './services/blocked-types';
import { CheckService } from './services/check-service';
import { SecondUploadService } from './services/second-upload-service';
import { BatchUploadService } from './services/batch-upload-service';
import { BatchUploadRepository } from './repositories/batch-upload-repository';
import { registerBatchUploadRoutes } from './routes/batch-upload-routes';
import { recoverStore } from './services/recovery';
import { UserRepository } from './repositories/user-repository';
import { registerAuthRoutes } from './routes/auth-routes';
import { registerConfigRoutes } from './routes/config-routes';
import { registerDownloadRoutes } from './routes/download-routes';
import { registerFileRoutes } from './routes/file-routes';
import { registerArchiveRoutes } from './routes/archive-routes';
import { registerFileStateRoutes } from './routes/file-state-routes';
import { registerGroupRoutes } from './routes/group-routes';
import { SearchRepository } from './repositories/search-repository';
import { SpaceRepository } from './repositories/space-repository';
import { TextHoldRepository } from './repositories/text-hold-repository';
import { TreeRepository } from './repositories/tree-repository';
import { ArchiveService } from './services/archive-service';
import { EntryDecorator } from './services/entry-decorator';
import { FileStateService } from './services/file-state-service';
import { GroupService } from './services/group-service';
import { SearchService } from './services/search-service';
import { AccessService } from './services/space-access';
import { TextService } from './services/text-service';
import { CopyMoveService } from './services/copy-move-service';
import { TrashService } from './services/trash-service';
import { ThumbnailStore } from './storage/thumbnail-store';
import { registerStaticRoutes } from './routes/static-routes';
import { registerUploadRoutes } from './routes/upload-routes';
import { registerUserRoutes } from './routes/user-routes';
import { registerSyncRoutes } from './routes/sync-routes';
import { registerDesktopReleaseRoutes } from './routes/desktop-release-routes';
import { SyncRepository } from './repositories/sync-repository';
import { SyncService } from './services/sync-service';
import { registerOrgRoutes } from './routes/org-routes';
import { registerUserAdminRoutes } from './routes/user-admin-routes';
import { registerUserImportRoutes } from './routes/user-import-routes';
import { registerNoticeRoutes } from './routes/notice-routes';
import { registerSystemNoticeRoutes } from './routes/system-notice-routes';
import { buildNotices, extendFileReach, type Notices } from './services/notices';
import { buildOrganisation } from './services/organisation';
import { AuthService } from './services/auth-service';
import { resolveAccountPolicy } from './services/account-policy';
import { LoginThrottle } from './services/login-throttle';
import { LoginFailureRepository } from './repositories/login-failure-repository';
import { SmsCodeRepository } from './repositories/sms-code-repository';
import { SmsCodeService } from './services/sms-code-service';
import { LogSmsGateway, OutboxSmsGateway } from './services/sms/dev-sms-gateways';
import { AccountService } from './services/account-service';
import { registerAccountRoutes } from './routes/account-routes';
import { registerPasswordResetRoutes } from './routes/password-reset-routes';
import { registerUserProfileRoutes } from './routes/user-profile-routes';
import { UserProfileService } from './services/user-profile-service';
import { PasswordResetService } from './services/password-reset-service';
import { CaptchaService } from './services/captcha-service';
import { ConfigService } from './services/config-service';
import { DownloadService } from './services/download-service';
import { FileService } from './services/file-service';
import { seedDemoData } from './services/seed';
import { Sweeper } from './services/sweeper';
import { ActionLogCheckpointer } from './services/action-log/checkpointer';
import { CheckpointDirectory } from './storage/checkpoint-directory';
import { loadCheckpointSigner } from './storage/checkpoint-key';
import { CRASH_POINTS, UploadService, type CrashPoint } from './services/upload-service';
import { UserService } from './services/user-service';
import { LocalDiskBlobStore } from './storage/blob-store';
import { FingerprintUpgradeRepository } from './repositories/fingerprint-upgrade-repository';
import { upgradeFingerprints, type FingerprintUpgradeReport } from './services/fingerprint-upgrade';
import { LocalChunkStore } from './storage/chunk-store';
import { ShareGrantRepository } from './repositories/share-grants';
import { ExchangeRepository } from './repositories/exchange-repository';
import { SharingSecrets } from './services/sharing/sharing-secrets';
import { ByteGate } from './services/sharing/byte-gate';
import { watermarkPicture } from './services/sharing/watermark';
import { buildSharing, sharedFileReach } from './services/sharing';
import { registerShareRoutes } from './routes/share-routes';
import { registerLinkRoutes } from './routes/link-routes';
import { registerApplicationRoutes } from './routes/application-routes';
import { registerExchangeRoutes } from './routes/exchange-routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Clean-up of expired uploads, captchas and sessions; tests call `sweeper.sweepOnce()`. */
    sweeper: Sweeper;
    /** Signed checkpoints of the action log's heads; tests call `auditCheckpoints.checkpointOnce()`. */
    auditCheckpoints: ActionLogCheckpointer;
    /** Notices (issue 16); `notices.events` is the port the sharing work calls. */
    notices: Notices;
    /** The background re-fingerprinting of blobs stored before the tree chunk digest (null: stopped at shutdown). */
    fingerprintUpgrade: Promise<FingerprintUpgradeReport | null>;
  }
}

/** Where the test hook writes issued captchas (only with DRIVE_TEST_HOOKS=1). */
export function captchaOutboxFile(dataDir: string): string {
  return path.join(dataDir, 'test-outbox', 'captcha.jsonl');
}

/** Where the development SMS gateway writes messages (only with DRIVE_TEST_HOOKS=1). */
export function smsOutboxFile(dataDir: string): string {
  return path.join(dataDir, 'test-outbox', 'sms.jsonl');
}

/**
 * Builds the whole server (database, storage, services, routes) without listening, so tests can
 * start it on port 0 with a temp data directory. Closing the app closes the database.
 */
export async function buildApp(config: ServerConfig): Promise<FastifyInstance> {
  assertSafeConfig(config);
  await fsp.mkdir(config.dataDir, { recursive: true });
  const tmpDir = path.join(config.dataDir, 'tmp');
  const uploadDir = path.join(config.dataDir, 'uploads');
  const blobStore = new LocalDiskBlobStore(path.join(config.dataDir, 'blobs'), tmpDir, uploadDir);
  const chunkStore = new LocalChunkStore(uploadDir, tmpDir);
  const thumbnails = new ThumbnailStore(path.join(config.dataDir, 'thumbs'), tmpDir);
  await blobStore.init();
  await chunkStore.init();
  await thumbnails.init();

  let sealHeads = false;
  const db = await openDatabase(config, (ran) => (sealHeads = ran.includes('0083_action_log_head_mac')));
  await seedDemoData(db, blobStore, config.defaultQuota);

  const tenants = new TenantRepository(db);
  const users = new UserRepository(db);
  const sessions = new SessionRepository(db);
  const captchaRepo = new CaptchaRepository(db);
  const files = new FileRepository(db);
  const uploadRepo = new UploadRepository(db);
  const checkRepo = new CheckRepository(db);
  const challengeRepo = new ChallengeRepository(db);
  const clientOps = new ClientOpRepository(db);
  const chainKey = await loadChainKey(config.dataDir, config.auditChainKey, true);
  const actionLogRepo = new ActionLogRepository(db, chainKey, (tenantId, seq) =>
    app.log.error({ tenantId, seq }, 'action log head was moved without the key (its MAC does not hold): recording goes on, the head stays marked; run audit:verify'));
  // Heads of before migration 0083 get their MAC once, by the start that added the column.
  const sealed = sealHeads ? await actionLogRepo.sealUnsealedHeads() : [];
  const actionLogs = new ActionLogService(actionLogRepo, (err) => app.log.error({ err }, 'action log write failed'));
  const checkpointSigner = await loadCheckpointSigner(config.dataDir, true);
  const auditCheckpoints = new ActionLogCheckpointer(
    actionLogRepo,
    chainKey,
    checkpointSigner,
    {
      log: (checkpoint) => app.log.info({ auditCheckpoint: checkpoint }, 'action log checkpoint'),
      directory: config.auditCheckpointDir ? new CheckpointDirectory(config.auditCheckpointDir) : undefined,
    },
    (err, message) => app.log.error({ err }, message),
  );
  await actionLogRepo.refreshStatistics();
  // The department filter takes the department and everything under it; another tenant's id is unknown.
  const departmentTree = new DepartmentRepository(db);
  const actionLogQueries = new ActionLogQueryService(actionLogRepo, async (tenantId, departmentId) => {
    const ids = await departmentTree.subtreeIds(tenantId, departmentId);
    return ids.length > 0 ? ids : null;
  });

  const captchas = new CaptchaService(captchaRepo, {
    ttlMs: config.captchaTtlMs,
    outboxFile: config.testHooks ? captchaOutboxFile(config.dataDir) : undefined,
  });
  const accountPolicy = resolveAccountPolicy(config.accounts);
  const throttle = new LoginThrottle(new LoginFailureRepository(db), accountPolicy);
  const smsGateway = config.testHooks
    ? new OutboxSmsGateway(smsOutboxFile(config.dataDir))
    : new LogSmsGateway((obj, msg) => app.log.warn(obj, msg));
  const smsCodes = new SmsCodeService(new SmsCodeRepository(db), smsGateway, accountPolicy, (err) => app.log.error({ err }, 'SMS send failed'));
  const auth = new AuthService(users, sessions, captchas, throttle, smsCodes, accountPolicy, config.sessionTtlMs);
  const accounts = new AccountService(users, sessions, throttle, smsCodes);
  const tenantConfig = new TenantConfigRepository(db);
  const dicts = new DictService(tenantConfig);
  const tenantService = new TenantService(tenants, tenantConfig, blobStore);
  await tenantService.init();
  const configService = new ConfigService(tenants, blobStore, accountPolicy.passwordExpiryDays, config.desktopRelease, (tenantId) =>
    dicts.disabledModules(tenantId));
  const userService = new UserService(users, config.publicBaseUrl);
  const spaceRepo = new SpaceRepository(db);
  const treeRepo = new TreeRepository(db);
  const retentionMs = config.recycleRetentionDays * 24 * 3600 * 1000;
  const grants = new ShareGrantRepository(db);
  const exchangeRepo = new ExchangeRepository(db);
  const access = new AccessService(files, spaceRepo, grants);
  const decorator = new EntryDecorator(files, checkRepo, retentionMs, exchangeRepo);
  const blockedTypes = new BlockedTypes(checkRepo);
  const fileService = new FileService(files, access, decorator, blockedTypes);
  const secrets = new SharingSecrets(chainKey);
  const gate = new ByteGate(exchangeRepo, async (t) => (await tenantService.switches(t)).exchangeSwitch, secrets);
  const downloads = new DownloadService(files, blobStore, access, gate);
  const trash = new TrashService(files, treeRepo, access, decorator, blobStore, thumbnails, retentionMs);
  const copyMove = new CopyMoveService(files, treeRepo, access, decorator, trash, gate, exchangeRepo);
  const fileStates = new FileStateService(files, treeRepo, access, decorator, downloads, gate);
  const texts = new TextService(files, uploadRepo, new TextHoldRepository(db), blobStore, access, decorator, blockedTypes, {
    chunkSize: config.chunkSize,
    holdTtlMs: config.uploadExpiryMs,
  });
  const search = new SearchService(new SearchRepository(db), files, spaceRepo, access, decorator);
  const groups = new GroupService(spaceRepo, users, access);
  const archives = new ArchiveService(files, blobStore, access, thumbnails, gate, watermarkPicture);
  // Notices: file changes reach them through the action log, held sensitive uploads through the checks.
  const notices = buildNotices(db, {
    onError: (err) => app.log.error({ err }, 'notice delivery failed'),
    // Entries shared with a reader keep their names in the messages; a share's people watch its entries.
    reach: (base) => extendFileReach(base, sharedFileReach(db, grants, files)),
  });
  actionLogs.observe(notices.fileActions);
  const sharing = buildSharing(db, {
    files,
    checks: checkRepo,
    grants,
    exchange: exchangeRepo,
    access,
    decorator,
    fileService,
    downloads,
    archives,
    copyMove,
    trash,
    blockedTypes,
    tenants: tenantService,
    gate,
    secrets,
    notices: notices.events,
    onNoticeError: (err) => app.log.error({ err }, 'share notice failed'),
  });
  const checks = new CheckService(checkRepo, users, fileService, blockedTypes, notices.sensitiveHeld);
  const sync = new SyncService(new SyncRepository(db), access, trash, blockedTypes, checks, async (tenantId) => (await tenantService.switches(tenantId)).syncTime, gate);
  const organisation = buildOrganisation(db, { users, sessions, spaces: spaceRepo, publicBaseUrl: config.publicBaseUrl });
  const crashPoint = config.testHooks ? (CRASH_POINTS as readonly string[]).find((p) => p === config.crashPoint) : undefined;
  if (config.crashPoint && !crashPoint) throw new Error(`unknown DRIVE_TEST_CRASH_POINT '${config.crashPoint}'`);
  const uploads = new UploadService(uploadRepo, users, fileService, chunkStore, blobStore, challengeRepo, blockedTypes, {
    chunkSize: config.chunkSize,
    maxFileSize: config.maxFileSize,
    uploadExpiryMs: config.uploadExpiryMs,
    crashPoint: crashPoint as CrashPoint | undefined,
  });

  const secondUploads = new SecondUploadService(uploadRepo, users, fileService, blobStore, challengeRepo, blockedTypes, config.maxFileSize);

  const app = Fastify({
    logger: config.logger ? { level: 'info' } : false,
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    trustProxy: config.trustProxy,
    // JSON bodies are small (the largest is chunk/exist with one digest per chunk).
    bodyLimit: 8 * 1024 * 1024,
    // Closing the server ends every connection, also keep-alive ones and long downloads (ZIPs,
    // previews): clients resume with Range. Waiting for them could hold a shutdown for hours.
    forceCloseConnections: true,
  });
  // 100 Continue only once a body is read; an answer given before the body's end stays readable.
  installReadableRefusals(app.server);
  // Repair whatever a crash left half done, before any request can arrive.
  await recoverStore(
    { tmpDir, uploads: uploadRepo, recovery: new RecoveryRepository(db), chunks: chunkStore, blobs: blobStore },
    { info: (obj, msg) => app.log.info(obj, msg), error: (obj, msg) => app.log.error(obj, msg) },
  );
  const auditRetentionMs = (config.auditRetentionDays ?? DEFAULTS.auditRetentionDays) * 24 * 3600 * 1000;
  const sweeper = new Sweeper(uploads, captchaRepo, sessions, { throttle, smsCodes }, { trash, texts, clientOps }, (err) =>
    app.log.error({ err }, 'sweep failed'), { actionLogs, retentionMs: auditRetentionMs }, notices.fileMessages, {
    sweep: async (now) => {
      await sharing.applications.expireDue(actionLogs, now);
      await sharing.throttle.deleteStale(now);
      await sharing.linkRepo.deleteExpiredTickets(now);
    },
  });
  app.decorate('sweeper', sweeper);
  app.decorate('auditCheckpoints', auditCheckpoints);
  if (sealed.length > 0) app.log.warn({ tenants: sealed }, 'action log heads written before migration 0083 sealed with their MAC');
  app.log.info({ keyId: checkpointSigner.keyId, publicKey: checkpointSigner.publicKeyBase64 }, 'action log checkpoints are signed with this Ed25519 key');
  app.decorate('notices', notices);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  installErrorHandler(app);
  installSecurityHeaders(app);
  installRouteRegistry(app);
  installActionLog(app, actionLogs);
  installSessionGuard(app, auth);
  installBodyEncodingGuard(app);
  installClientOps(app, clientOps);

  registerConfigRoutes(app, configService);
  registerAuthRoutes(app, auth, captchas, config.sessionTtlMs);
  registerUserRoutes(app, userService);
  registerUserProfileRoutes(app, new UserProfileService(users, blobStore), userService);
  registerAccountRoutes(app, accounts);
  registerPasswordResetRoutes(app, new PasswordResetService(users, sessions, throttle, smsCodes, accountPolicy));
  registerOrgRoutes(app, organisation.org, organisation.departments);
  registerUserAdminRoutes(app, organisation.userAdmin);
  registerUserImportRoutes(app, organisation.userImport);
  registerFileRoutes(app, { files: fileService, copyMove, trash, texts, search });
  registerFileStateRoutes(app, trash, fileStates);
  registerGroupRoutes(app, groups);
  registerArchiveRoutes(app, archives, downloads, watermarkPicture);
  registerDownloadRoutes(app, downloads);
  registerUploadRoutes(app, uploads, config.chunkSize);
  registerPreUploadRoutes(app, secondUploads, checks, (caller) => sharing.exchange.intercepted(caller));
  registerBatchUploadRoutes(app, new BatchUploadService(new BatchUploadRepository(db), uploadRepo, fileService, blobStore, blockedTypes, config.chunkSize));
  registerActionLogRoutes(app, actionLogQueries, auditCheckpoints);
  registerTenantRoutes(app, tenantService);
  registerDictRoutes(app, dicts);
  registerShareRoutes(app, sharing);
  registerLinkRoutes(app, sharing.links, sharing.visits, sharing.tickets, watermarkPicture);
  registerApplicationRoutes(app, sharing.applications);
  registerExchangeRoutes(app, sharing.exchange);
  registerNoticeRoutes(app, notices);
  registerSystemNoticeRoutes(app, notices);
  registerSyncRoutes(app, sync);
  if (config.testHooks) registerTestRoutes(app, tmpDir, uploads);
  await registerDesktopReleaseRoutes(app, config.desktopReleaseDir);
  await registerStaticRoutes(app, config.staticDir);

  sweeper.start(config.sweepIntervalMs);
  auditCheckpoints.start(config.auditCheckpointIntervalMs ?? DEFAULTS.auditCheckpointIntervalMs);
  notices.start();
  // Open notice streams end before the server closes (they would hold it open otherwise).
  app.addHook('preClose', async () => notices.stop());
  const upgradeStop = new AbortController();
  const logError = (obj: object, msg: string) => app.log.error(obj, msg);
  app.decorate(
    'fingerprintUpgrade',
    upgradeFingerprints(new FingerprintUpgradeRepository(db), blobStore, config.chunkSize, upgradeStop.signal, { info: (obj, msg) => app.log.info(obj, msg), error: logError }).catch(
      (err: unknown) => {
        if (!upgradeStop.signal.aborted) logError({ err }, 'fingerprint upgrade failed');
        return null;
      },
    ),
  );
  app.addHook('onClose', async () => {
    upgradeStop.abort();
    await app.fingerprintUpgrade;
    await sweeper.stop();
    await actionLogs.drain();
    await auditCheckpoints.stop();
    await chunkStore.close();
    await db.destroy();
  });
  return app;
}
