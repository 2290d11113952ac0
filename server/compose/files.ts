import type { FastifyInstance } from 'fastify';
import { CheckRepository } from '../repositories/check-repository';
import { ExchangeRepository } from '../repositories/exchange-repository';
import { FileRepository } from '../repositories/file-repository';
import { SearchRepository } from '../repositories/search-repository';
import { ShareGrantRepository } from '../repositories/share-grants';
import { SpaceRepository } from '../repositories/space-repository';
import { TextHoldRepository } from '../repositories/text-hold-repository';
import { TreeRepository } from '../repositories/tree-repository';
import type { UserRepository } from '../repositories/user-repository';
import { UploadRepository } from '../repositories/upload-repository';
import { registerArchiveRoutes } from '../routes/archive-routes';
import { registerDownloadRoutes } from '../routes/download-routes';
import { registerFileRoutes } from '../routes/file-routes';
import { registerFileStateRoutes } from '../routes/file-state-routes';
import { registerGroupRoutes } from '../routes/group-routes';
import { ArchiveService } from '../services/archive-service';
import { ContentSearchRepository } from '../repositories/content-search-repository';
import { ContentTextRepository } from '../repositories/content-text-repository';
import { ContentSearch } from '../services/content/content-search';
import { ContentScanJobs } from '../services/content/content-scan-jobs';
import { ContentScanRepository } from '../repositories/content-scan-repository';
import { ContentTextService } from '../services/content/content-text-service';
import { DEFAULT_SENSITIVE_KEYWORDS } from '../../common/transfer/checks';
import { BlockedTypes } from '../services/blocked-types';
import { DownloadService } from '../services/download-service';
import { EntryDecorator } from '../services/entry-decorator';
import { FileService } from '../services/file-service';
import { FileStateService } from '../services/file-state-service';
import { GroupService } from '../services/group-service';
import { SearchService } from '../services/search-service';
import { ByteGate } from '../services/sharing/byte-gate';
import { SharingSecrets } from '../services/sharing/sharing-secrets';
import { watermarkPicture } from '../services/sharing/watermark';
import { AccessService } from '../services/space-access';
import type { TenantService } from '../services/tenant-service';
import { TextService } from '../services/text-service';
import { CopyMoveService } from '../services/copy-move-service';
import { TrashService } from '../services/trash-service';
import type { EventBus } from '../services/cluster/ports';
import { TENANT_SETTINGS_CHANGED, TenantSettingsCache } from '../services/tenant-settings-cache';
import type { Base, Routed } from './base';
import type { Storage } from './storage';
import type { DocumentService } from '../services/documents/document-service';

/** The file tree's repositories, for the domains built on it (sharing, uploads, sync, notices). */
export interface FileRepositories {
  files: FileRepository;
  spaces: SpaceRepository;
  checks: CheckRepository;
  grants: ShareGrantRepository;
  exchange: ExchangeRepository;
  uploads: UploadRepository;
  /** Extracted texts of blobs and their keyword hits (search inside files). */
  contentTexts: ContentTextRepository;
}

export interface Files extends Routed {
  repos: FileRepositories;
  /** Who may do what where (own space, groups, shares). */
  access: AccessService;
  decorator: EntryDecorator;
  /** The tenant's settings row, cached per process; a write calls `changed` (every process drops its copy). */
  tenantSettings: TenantSettingsCache;
  blockedTypes: BlockedTypes;
  service: FileService;
  secrets: SharingSecrets;
  /** The one decision of what a caller may do with bytes. */
  gate: ByteGate;
  downloads: DownloadService;
  trash: TrashService;
  copyMove: CopyMoveService;
  /** Favorites, 锁定/解锁 and versions (WebDAV's LOCK takes the product's lock through it). */
  fileStates: FileStateService;
  texts: TextService;
  archives: ArchiveService;
  /** Extracted texts of blobs (search inside files, sensitive words in content): docrend's pipeline puts them here. */
  contentTexts: ContentTextService;
  /** The background re-scan of texts after a keyword change (run by the leading process). */
  contentScans: ContentScanJobs;
}

export interface FilesDeps extends Base {
  storage: Storage;
  users: UserRepository;
  tenants: TenantService;
  /** The action log's key: link secrets and tickets derive from it. */
  chainKey: Buffer;
  /** Cache drops reach every server process (compose/cluster.ts). */
  bus: EventBus;
  /** The documents pipeline: Office renditions for previews, and what goes with a purged blob. */
  documents: DocumentService;
}

/** Spaces and their entries: browsing, search, groups, recycle bin, texts, downloads and ZIPs. */
export function buildFiles({ db, config, log, storage, users, tenants, chainKey, bus, documents }: FilesDeps): Files {
  const repos: FileRepositories = {
    files: new FileRepository(db),
    spaces: new SpaceRepository(db),
    checks: new CheckRepository(db),
    grants: new ShareGrantRepository(db),
    exchange: new ExchangeRepository(db),
    uploads: new UploadRepository(db),
    contentTexts: new ContentTextRepository(db),
  };
  const { files, spaces, checks, grants, exchange } = repos;
  const tree = new TreeRepository(db);
  const retentionMs = config.recycleRetentionDays * 24 * 3600 * 1000;
  const access = new AccessService(files, spaces, grants);
  const tenantSettings = new TenantSettingsCache(checks, (tenantId) =>
    bus.publish(TENANT_SETTINGS_CHANGED, { t: tenantId }).catch((err: unknown) => log.error({ err }, 'tenant settings change not announced')),
  );
  // Another process's change (this process's own arrive too: dropping twice costs nothing); after a
  // gap of the bus every copy is read anew.
  bus.subscribe(TENANT_SETTINGS_CHANGED, (p) => tenantSettings.forget(String(p.t)));
  bus.onGap(() => tenantSettings.forget());
  const decorator = new EntryDecorator(files, tenantSettings, retentionMs, { exchange, contentTexts: repos.contentTexts });
  const blockedTypes = new BlockedTypes(checks);
  const service = new FileService(files, access, decorator, blockedTypes);
  const secrets = new SharingSecrets(chainKey);
  const gate = new ByteGate(exchange, async (t) => (await tenants.switches(t)).exchangeSwitch, secrets, async (t) => {
    const [space, switches] = await Promise.all([spaces.findPublic(t), tenants.switches(t)]);
    return { spaceId: space?.id ?? null, downloadOn: switches.publicDownLoad };
  });
  const downloads = new DownloadService(files, storage.blobs, access, { gate, renditions: documents });
  const trash = new TrashService({ files, tree, access, decorator, blobs: storage.blobs, thumbnails: storage.thumbnails, retentionMs, documents });
  const copyMove = new CopyMoveService({ files, tree, access, decorator, trash, gate, exchange });
  const fileStates = new FileStateService({ files, tree, access, decorator, downloads, gate });
  const texts = new TextService({
    files,
    uploads: repos.uploads,
    holds: new TextHoldRepository(db),
    blobs: storage.blobs,
    access,
    decorator,
    types: blockedTypes,
    options: {
      chunkSize: config.chunkSize,
      holdTtlMs: config.uploadExpiryMs,
    },
  });
  const content = new ContentSearch(new ContentSearchRepository(db), repos.contentTexts);
  const search = new SearchService({ repo: new SearchRepository(db), files, spaces, access, decorator, content });
  const groups = new GroupService(spaces, users, access);
  const contentTexts = new ContentTextService({
    repo: repos.contentTexts,
    keywordsOf: async (tenantId) => (await tenantSettings.get(tenantId)).sensitiveKeywords ?? DEFAULT_SENSITIVE_KEYWORDS,
  });
  const contentScans = new ContentScanJobs({
    jobs: new ContentScanRepository(db),
    texts: repos.contentTexts,
    // Read from the row, not the per-process cache: a job checks with the list as saved.
    keywordsOf: async (tenantId) => (await checks.tenantSettings(tenantId)).sensitiveKeywords ?? DEFAULT_SENSITIVE_KEYWORDS,
    log,
  });
  const archives = new ArchiveService({ files, blobs: storage.blobs, access, thumbnails: storage.thumbnails, gate, watermark: watermarkPicture });
  return {
    repos,
    access,
    decorator,
    tenantSettings,
    blockedTypes,
    service,
    secrets,
    gate,
    downloads,
    trash,
    copyMove,
    fileStates,
    texts,
    archives,
    contentTexts,
    contentScans,
    routes(app: FastifyInstance) {
      registerFileRoutes(app, { files: service, copyMove, trash, texts, search });
      registerFileStateRoutes(app, trash, fileStates);
      registerGroupRoutes(app, groups);
      registerArchiveRoutes(app, archives, downloads, watermarkPicture);
      registerDownloadRoutes(app, downloads);
    },
  };
}
