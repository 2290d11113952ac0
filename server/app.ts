import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { assertSafeConfig, type ServerConfig } from './config';
import { openDatabase } from './db/database';
import './http/fastify-types';
import './compose/app-decorations';
import { installActionLog } from './http/action-hooks';
import { installBodyEncodingGuard } from './http/body-encoding';
import { installClientOps } from './http/client-ops';
import { installErrorHandler } from './http/error-handler';
import { installFairTurns } from './http/fair-turns';
import { lazyValidators } from './http/lazy-validators';
import { noResponseSchemas } from './http/no-response-schemas';
import { installReadableRefusals } from './http/readable-refusals';
import { installRouteRegistry } from './http/route-registry';
import { installSecurityHeaders } from './http/security-headers';
import { installSessionGuard } from './http/session-guard';
import { ClientOpRepository } from './repositories/client-op-repository';
import { registerDesktopReleaseRoutes } from './routes/desktop-release-routes';
import { registerStaticRoutes } from './routes/static-routes';
import { seedDemoData } from './services/seed';
import { buildAccounts } from './compose/accounts';
import { resolveAccountPolicy } from './services/account-policy';
import { buildAudit } from './compose/audit';
import { buildCluster } from './compose/cluster';
import { buildFiles } from './compose/files';
import { buildGesture } from './compose/gesture';
import { buildNotices } from './compose/notices';
import { buildOrganisation } from './compose/organisation';
import { buildClientReleases } from './compose/client-releases';
import { buildDevicePasswords } from './compose/device-passwords';
import { buildDocuments } from './compose/documents';
import { buildSharing } from './compose/sharing';
import { buildStorage } from './compose/storage';
import { buildSweeper } from './compose/sweeper';
import { buildSync } from './compose/sync';
import { buildTenants } from './compose/tenants';
import { buildUploads } from './compose/uploads';
import { buildLocks } from './compose/locks';
import { buildDav } from './compose/dav';
import { runLeaderJobs } from './compose/leader-jobs';
import { davAuthenticate } from './dav/dav-auth';

export { captchaOutboxFile, smsOutboxFile } from './compose/accounts';

/**
 * Builds the whole server (database, storage, services, routes) without listening, so tests can
 * start it on port 0 with a temp data directory. Closing the app closes the database.
 *
 * This file only composes: each domain builds its repositories, services and routes in
 * server/compose/<domain>.ts from named dependencies, so work inside one domain leaves it alone.
 */
export async function buildApp(config: ServerConfig): Promise<FastifyInstance> {
  assertSafeConfig(config);
  const validators = lazyValidators();
  const app = Fastify({
    schemaController: { compilersFactory: { buildValidator: validators.buildValidator, buildSerializer: noResponseSchemas } },
    logger: config.logger ? { level: 'info' } : false,
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    // Only the listed proxies' X-Forwarded-* are believed (an empty list: none).
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    // JSON bodies are small (the largest is chunk/exist with one digest per chunk).
    bodyLimit: 8 * 1024 * 1024,
    // Closing the server ends every connection, also keep-alive ones and long downloads (ZIPs,
    // previews): clients resume with Range. Waiting for them could hold a shutdown for hours.
    forceCloseConnections: true,
  });
  // 100 Continue only once a body is read; an answer given before the body's end stays readable.
  installReadableRefusals(app.server);
  installFairTurns(app.server);

  const storage = await buildStorage({ config });
  let sealHeads = false;
  const db = await openDatabase(config, (ran) => (sealHeads = ran.includes('0083_action_log_head_mac')));
  await seedDemoData(db, storage.blobs, config.defaultQuota);

  const base = { db, config, log: app.log };
  // One kind of lock for every domain: in memory on SQLite, PostgreSQL advisory locks with DB_URL.
  const locks = buildLocks(base);
  // On SQLite one process; with DB_URL one of several: events, cache drops and the periodic jobs' leader.
  const cluster = buildCluster(base);
  const audit = await buildAudit({ ...base, sealHeads });
  const tenants = await buildTenants({ ...base, blobs: storage.blobs, passwordExpiryDays: resolveAccountPolicy(config.accounts).passwordExpiryDays });
  const accounts = buildAccounts({ ...base, blobs: storage.blobs, locks, homeUrlOf: (user) => tenants.config.homeUrl({ tenantId: user.tenant_id, role: user.role }) });
  const documents = await buildDocuments({ ...base, storage });
  const files = buildFiles({ ...base, storage, users: accounts.users, tenants: tenants.service, chainKey: audit.chainKey, bus: cluster.bus, documents: documents.service });
  // Extracted text goes to search inside files (docsearch's text store and index).
  documents.setContent(files.contentTexts);
  const notices = buildNotices({ ...base, files: files.repos, actionLogs: audit.actionLogs, bus: cluster.bus });
  const sharing = buildSharing({ ...base, files, tenants: tenants.service, notices: notices.events, actionLogs: audit.actionLogs, locks });
  const uploads = await buildUploads({ ...base, storage, files, users: accounts.users, notices, exchange: sharing.exchange, locks, documents: documents.service });
  const sync = buildSync({ db, files, checks: uploads.checks, tenants: tenants.service });
  const organisation = buildOrganisation({ ...base, bus: cluster.bus, users: accounts.users, sessions: accounts.sessions, spaces: files.repos.spaces, quotaChoices: (t) => tenants.dicts.quotaChoices(t) });
  const clientReleases = buildClientReleases({ db, config, files });
  const gesture = buildGesture({ db, tenants: tenants.service });
  const devicePasswords = buildDevicePasswords({ ...base, throttle: accounts.throttle, policy: accounts.policy, tenants: tenants.service, users: accounts.users, actionLogs: audit.actionLogs });
  // WebDAV (issue 39): each request signs in with a 设备密码 (server/dav/dav-auth.ts).
  const dav = buildDav({ files, users: accounts.users, tenants: tenants.service, sharedFiles: sharing.sharedFiles, actionLogs: audit.actionLogs, uploads: uploads.uploads, batches: uploads.batches, chunkSize: config.chunkSize, tmpDir: storage.tmpDir, authenticate: davAuthenticate(devicePasswords.authenticator), db, locks });
  const clientOps = new ClientOpRepository(db);
  const sweeper = buildSweeper({ log: app.log, accounts, files, uploads, audit, notices, sharing, clientOps, documents, davLocks: dav.locks });
  app.decorate('sweeper', sweeper);
  app.decorate('byteStore', storage.store);
  app.decorate('storeRecovery', uploads.recovery);
  app.decorate('auditCheckpoints', audit.checkpoints);
  app.decorate('notices', notices);
  app.decorate('contentTexts', files.contentTexts);
  app.decorate('documents', documents);
  app.decorate('validators', { compiled: validators.compiled, registered: validators.registered, compileAll: validators.compileAll });

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  installErrorHandler(app);
  installSecurityHeaders(app);
  installRouteRegistry(app);
  installActionLog(app, audit.actionLogs);
  installSessionGuard(app, accounts.auth, gesture.lock);
  installBodyEncodingGuard(app);
  installClientOps(app, clientOps);

  for (const domain of [tenants, accounts, organisation, files, uploads, audit, sharing, notices, sync, clientReleases, gesture, devicePasswords, dav, documents]) await domain.routes(app);
  await registerDesktopReleaseRoutes(app, config.desktopReleaseDir);
  await registerStaticRoutes(app, config.staticDir, { summary: (token) => sharing.pageSummary(token), config: () => tenants.config.systemConfig(null) });

  const jobs = runLeaderJobs(cluster.leadership, { config, sweeper, audit, files, uploads });
  app.decorate('fingerprintUpgrade', jobs.fingerprintUpgrade);
  const life = new AbortController();
  await cluster.start(life.signal);
  notices.start();
  // Documents are converted in the background by every process (jobs claimed with a lease).
  documents.pool.start();
  // Open notice streams end before the server closes (they would hold it open otherwise).
  app.addHook('preClose', async () => notices.stop());
  app.addHook('onClose', async () => {
    life.abort();
    await documents.close();
    await cluster.stopped();
    jobs.closed();
    await audit.actionLogs.drain();
    await storage.store.close();
    await locks.close();
    await db.destroy();
  });
  return app;
}
