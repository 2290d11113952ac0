import type { FastifyInstance } from 'fastify';
import type { ActionLogService } from '../services/action-log-service';
import type { UserRepository } from '../repositories/user-repository';
import type { SharedFilesService } from '../services/sharing/shared-files-service';
import type { TenantService } from '../services/tenant-service';
import type { UploadService } from '../services/upload-service';
import type { BatchUploadService } from '../services/batch-upload-service';
import { GroupService } from '../services/group-service';
import type { DavAuthenticate } from '../dav/context';
import { DavTree } from '../dav/dav-tree';
import type { DavDeps } from '../dav/deps';
import { registerDavRoutes } from '../dav/dav-routes';
import type { Routed } from './base';
import type { Files } from './files';
import type { Db } from '../db/database';
import type { Locks } from '../services/locks';
import { DavLockRepository } from '../repositories/dav-lock-repository';
import { DavPropertyRepository } from '../repositories/dav-property-repository';
import { DavLocks } from '../dav/locks/dav-locks';

export interface DavCompositionDeps {
  files: Files;
  users: UserRepository;
  tenants: TenantService;
  sharedFiles: SharedFilesService;
  actionLogs: ActionLogService;
  uploads: UploadService;
  batches: BatchUploadService;
  chunkSize: number;
  tmpDir: string;
  /** Who the caller is (davpw: device passwords). */
  authenticate: DavAuthenticate;
  db: Db;
  /** The server's cross-process locks: LOCK decisions of a tenant run one at a time. */
  locks: Locks;
}

/** The WebDAV endpoint /dav/ (issue 39) over the web app's own services: server/dav/. */
export function buildDav({ files, users, tenants, sharedFiles, actionLogs, uploads, batches, chunkSize, tmpDir, authenticate, db, locks }: DavCompositionDeps): Routed & { locks: DavLocks } {
  const davLocks = new DavLocks({ repo: new DavLockRepository(db), files: files.repos.files, fileState: files.fileStates, locks });
  const groups = new GroupService(files.repos.spaces, users, files.access);
  const tree = new DavTree({
    files: files.repos.files,
    access: files.access,
    groups,
    sharedFiles,
    exchangeOn: async (tenantId) => (await tenants.switches(tenantId)).exchangeSwitch,
  });
  const deps: DavDeps = {
    authenticate,
    tree,
    access: files.access,
    files: files.service,
    downloads: files.downloads,
    gate: files.gate,
    trash: files.trash,
    copyMove: files.copyMove,
    types: files.blockedTypes,
    actionLogs,
    uploads,
    batches,
    chunkSize,
    tmpDir,
    locks: davLocks,
    properties: new DavPropertyRepository(db),
    live: {
      fingerprints: async (caller, blobIds) => {
        const blobs = await files.repos.files.findBlobs(caller.tenantId, blobIds);
        return new Map(blobs.map((b) => [b.id, b.fingerprint]));
      },
      quota: async (caller) => {
        const user = await users.findInTenant(caller.tenantId, caller.userId);
        return user ? { quota: Number(user.quota), used: Number(user.used_size) } : null;
      },
    },
  };
  return { locks: davLocks, routes: (app: FastifyInstance) => registerDavRoutes(app, deps) };
}
