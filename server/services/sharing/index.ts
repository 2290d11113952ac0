import type { Db } from '../../db/database';
import { ApplicationRepository } from '../../repositories/application-repository';
import type { CheckRepository } from '../../repositories/check-repository';
import type { ExchangeRepository } from '../../repositories/exchange-repository';
import type { FileRepository } from '../../repositories/file-repository';
import { LinkRepository } from '../../repositories/link-repository';
import { SecuritySettingsRepository } from '../../repositories/security-settings-repository';
import type { ShareGrantRepository } from '../../repositories/share-grants';
import { ShareRepository } from '../../repositories/share-repository';
import { SharingLookupRepository } from '../../repositories/sharing-lookup-repository';
import type { ArchiveService } from '../archive-service';
import type { BlockedTypes } from '../blocked-types';
import type { DownloadService } from '../download-service';
import type { EntryDecorator } from '../entry-decorator';
import type { FileService } from '../file-service';
import type { AccessService } from '../space-access';
import type { TenantService } from '../tenant-service';
import type { CopyMoveService } from '../copy-move-service';
import type { TrashService } from '../trash-service';
import { ApplicationService } from './application-service';
import type { ByteGate } from './byte-gate';
import { ExchangeService } from './exchange-service';
import { FileSecurityService } from './file-security-service';
import { LinkService } from './link-service';
import { LinkThrottle, type LinkThrottlePolicy } from './link-throttle';
import { LinkVisitService } from './link-visit-service';
import { OnlineEditService } from './online-edit-service';
import { NO_SHARE_EVENTS, type ShareEvents } from './share-events';
import { shareNotices } from './share-notices';
import { SharedFileReach } from './shared-file-reach';
import type { NoticeEvents } from '../notices';
import { SharePolicyEvaluator } from './share-policy';
import { ShareService } from './share-service';
import { SharedFilesService } from './shared-files-service';
import type { SharingSecrets } from './sharing-secrets';
import { TicketMeter } from './ticket-meter';
import { watermarkPicture } from './watermark';

export interface Sharing {
  shares: ShareService;
  sharedFiles: SharedFilesService;
  links: LinkService;
  visits: LinkVisitService;
  applications: ApplicationService;
  security: FileSecurityService;
  exchange: ExchangeService;
  onlineEdit: OnlineEditService;
  throttle: LinkThrottle;
  /** The one copy each link ticket gives. */
  tickets: TicketMeter;
  linkRepo: LinkRepository;
}

export interface SharingDeps {
  files: FileRepository;
  checks: CheckRepository;
  grants: ShareGrantRepository;
  exchange: ExchangeRepository;
  access: AccessService;
  decorator: EntryDecorator;
  fileService: FileService;
  downloads: DownloadService;
  archives: ArchiveService;
  copyMove: CopyMoveService;
  trash: TrashService;
  blockedTypes: BlockedTypes;
  tenants: TenantService;
  gate: ByteGate;
  secrets: SharingSecrets;
  events?: ShareEvents;
  /** Issue 16's port: sharing's events become file messages (unless `events` is given). */
  notices?: NoticeEvents;
  onNoticeError?: (err: unknown) => void;
  throttle?: LinkThrottlePolicy;
}

/** The sharing services (issue 15) over their repositories, for app.ts to route. */
export function buildSharing(db: Db, d: SharingDeps): Sharing {
  const lookup = new SharingLookupRepository(db);
  const security = new FileSecurityService(new SecuritySettingsRepository(db), d.checks, lookup, d.files);
  const policy = new SharePolicyEvaluator(security, lookup, d.grants);
  const shareRepo = new ShareRepository(db);
  const linkRepo = new LinkRepository(db);
  const events =
    d.events ?? (d.notices ? shareNotices(d.notices, { lookup, files: d.files, shares: shareRepo }, d.onNoticeError ?? (() => undefined)) : NO_SHARE_EVENTS);
  const shares = new ShareService(shareRepo, d.files, lookup, d.access, policy, events);
  const switches = (tenantId: string) => d.tenants.switches(tenantId);
  const links = new LinkService(linkRepo, d.files, shares, policy, d.secrets, async (t) => (await switches(t)).keyCreate);
  const throttle = new LinkThrottle(linkRepo, d.throttle);
  const visits = new LinkVisitService(
    linkRepo,
    d.files,
    d.grants,
    d.archives,
    d.downloads,
    d.copyMove,
    d.secrets,
    throttle,
    async (t) => (await switches(t)).publicDownLoad,
    events,
    watermarkPicture,
    d.gate,
  );
  return {
    shares,
    sharedFiles: new SharedFilesService(shareRepo, d.grants, d.files, d.fileService, d.access, d.decorator),
    links,
    visits,
    applications: new ApplicationService(new ApplicationRepository(db), shares, links, policy, security, lookup, d.files, events),
    security,
    exchange: new ExchangeService(d.access, d.files, d.exchange, security, d.blockedTypes, d.downloads, d.trash, d.gate, async (t) => (await switches(t)).exchangeSwitch),
    onlineEdit: new OnlineEditService(d.access),
    throttle,
    tickets: new TicketMeter(linkRepo),
    linkRepo,
  };
}

/** The notices' reach widened by shares (issue 16's `reach` option). */
export function sharedFileReach(db: Db, grants: ShareGrantRepository, files: FileRepository): SharedFileReach {
  return new SharedFileReach(grants, files, new ShareRepository(db), new SharingLookupRepository(db));
}
