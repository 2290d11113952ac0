import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import type { LinkSummary } from '../../common/api/sharing';
import { AppError } from '../http/app-error';
import { ApplicationRepository } from '../repositories/application-repository';
import { LinkRepository } from '../repositories/link-repository';
import { SecuritySettingsRepository } from '../repositories/security-settings-repository';
import { ShareRepository } from '../repositories/share-repository';
import { SharingLookupRepository } from '../repositories/sharing-lookup-repository';
import { registerApplicationRoutes } from '../routes/application-routes';
import { registerExchangeRoutes } from '../routes/exchange-routes';
import { registerLinkRoutes } from '../routes/link-routes';
import { registerShareRoutes } from '../routes/share-routes';
import type { ActionLogService } from '../services/action-log-service';
import type { NoticeEvents } from '../services/notices';
import type { TenantService } from '../services/tenant-service';
import { ApplicationReviewService } from '../services/sharing/application-review';
import { ApplicationService } from '../services/sharing/application-service';
import { ExchangeService } from '../services/sharing/exchange-service';
import { FileSecurityService } from '../services/sharing/file-security-service';
import { LinkService } from '../services/sharing/link-service';
import { LinkThrottle } from '../services/sharing/link-throttle';
import { LinkVisitService } from '../services/sharing/link-visit-service';
import { OnlineEditService } from '../services/sharing/online-edit-service';
import { shareNotices } from '../services/sharing/share-notices';
import { SharePolicyEvaluator } from '../services/sharing/share-policy';
import { ShareService } from '../services/sharing/share-service';
import { SharedFilesService } from '../services/sharing/shared-files-service';
import { TicketMeter } from '../services/sharing/ticket-meter';
import { watermarkPicture } from '../services/sharing/watermark';
import type { Locks } from '../services/locks';
import type { Base, Routed } from './base';
import type { Files } from './files';

export interface Sharing extends Routed {
  /** The exchange area (its intercepted files are listed by the pre-upload routes). */
  exchange: ExchangeService;
  /** 共享文件: what others share with a caller (also WebDAV's /dav/共享文件). */
  sharedFiles: SharedFilesService;
  /** Expired applications, stale link counters and tickets: one part of the sweeper's pass. */
  sweep(now: number): Promise<void>;
  /** A link's summary as a visitor without a session sees it, for its page drawn on the server (null: they may not). */
  pageSummary(token: string): Promise<LinkSummary | 'gone' | null>;
}

export interface SharingDeps extends Omit<Base, 'config'> {
  files: Files;
  tenants: TenantService;
  /** Issue 16's port: sharing's events become file messages. */
  notices: NoticeEvents;
  /** Expired applications are recorded in the action log. */
  actionLogs: ActionLogService;
  /** The server's locks (compose/locks.ts): link codes are judged one at a time per token. */
  locks: Locks;
}

/** The sharing services (issue 15): internal shares, links, applications, file security, exchange area. */
export function buildSharing({ db, log, files, tenants, notices, actionLogs, locks }: SharingDeps): Sharing {
  const { repos } = files;
  const lookup = new SharingLookupRepository(db);
  const security = new FileSecurityService(new SecuritySettingsRepository(db), repos.checks, lookup, { files: repos.files, tenantSettings: files.tenantSettings, contentScans: files.contentScans });
  const policy = new SharePolicyEvaluator(security, lookup, repos.grants, repos.contentTexts);
  const shareRepo = new ShareRepository(db);
  const linkRepo = new LinkRepository(db);
  const events = shareNotices(notices, { lookup, files: repos.files, shares: shareRepo }, (err) => log.error({ err }, 'share notice failed'));
  const shares = new ShareService({ shares: shareRepo, files: repos.files, lookup, access: files.access, policy, events });
  const switches = (tenantId: string) => tenants.switches(tenantId);
  const links = new LinkService({
    links: linkRepo,
    files: repos.files,
    shares,
    policy,
    secrets: files.secrets,
    codesRequired: async (t) => (await switches(t)).keyCreate,
  });
  const throttle = new LinkThrottle(linkRepo, locks);
  const visits = new LinkVisitService({
    links: linkRepo,
    files: repos.files,
    grants: repos.grants,
    archives: files.archives,
    downloads: files.downloads,
    copyMove: files.copyMove,
    secrets: files.secrets,
    throttle,
    events,
    watermark: watermarkPicture,
    gate: files.gate,
  });
  const tickets = new TicketMeter(linkRepo);
  const applicationRepo = new ApplicationRepository(db);
  const applications = new ApplicationService({ apps: applicationRepo, shares, links, policy, security, lookup, files: repos.files, events });
  const review = new ApplicationReviewService({ apps: applicationRepo, files: repos.files, downloads: files.downloads, gate: files.gate });
  const exchange = new ExchangeService({
    access: files.access,
    files: repos.files,
    exchange: repos.exchange,
    security,
    contentTexts: repos.contentTexts,
    types: files.blockedTypes,
    downloads: files.downloads,
    trash: files.trash,
    gate: files.gate,
    exchangeOn: async (t) => (await switches(t)).exchangeSwitch,
  });
  const sharedFiles = new SharedFilesService({
    shares: shareRepo,
    grants: repos.grants,
    files: repos.files,
    fileService: files.service,
    access: files.access,
    decorator: files.decorator,
  });
  return {
    exchange,
    sharedFiles,
    async pageSummary(token) {
      try {
        return await visits.summary({ caller: null, address: '' }, { token });
      } catch (e) {
        if (e instanceof AppError && e.code === ERRORS.LINK_GONE.code) return 'gone';
        if (e instanceof AppError && e.code === ERRORS.UNAUTHORIZED.code) return null;
        throw e;
      }
    },
    async sweep(now) {
      await applications.expireDue(actionLogs, now);
      await throttle.deleteStale(now);
      await linkRepo.deleteExpiredTickets(now);
    },
    routes(app: FastifyInstance) {
      registerShareRoutes(app, {
        shares,
        sharedFiles,
        security,
        onlineEdit: new OnlineEditService(files.access),
      });
      registerLinkRoutes(app, links, visits, tickets, watermarkPicture);
      registerApplicationRoutes(app, applications, review, watermarkPicture);
      registerExchangeRoutes(app, exchange);
    },
  };
}
