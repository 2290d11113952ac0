import type { ActionLogService } from '../services/action-log-service';
import type { BlockedTypes } from '../services/blocked-types';
import type { CopyMoveService } from '../services/copy-move-service';
import type { DownloadService } from '../services/download-service';
import type { FileService } from '../services/file-service';
import type { ByteGate } from '../services/sharing/byte-gate';
import type { AccessService } from '../services/space-access';
import type { TrashService } from '../services/trash-service';
import type { UploadService } from '../services/upload-service';
import type { BatchUploadService } from '../services/batch-upload-service';
import type { DavAuthenticate } from './context';
import type { DavTree } from './dav-tree';
import type { LiveFacts } from './properties';
import type { DavPropertyRepository } from '../repositories/dav-property-repository';
import type { DavLocks } from './locks/dav-locks';

/** What the WebDAV handlers use: the web app's own services (compose/dav.ts builds it). */
export interface DavDeps {
  authenticate: DavAuthenticate;
  tree: DavTree;
  access: AccessService;
  files: FileService;
  downloads: DownloadService;
  gate: ByteGate;
  trash: TrashService;
  copyMove: CopyMoveService;
  /** The tenant's blocked types (a COPY/MOVE under a new name is judged as a rename is). */
  types: BlockedTypes;
  live: LiveFacts;
  /** PUT bodies go through the chunk uploads' receive path (streaming session, range upload, merge). */
  uploads: UploadService;
  /** PUT bodies of at most BATCH_FILE_MAX_BYTES go through the small-file batch's checks and commit instead. */
  batches: BatchUploadService;
  /** The server's chunk size (a PUT's session is cut into chunks of it). */
  chunkSize: number;
  /** DATA_DIR/tmp: a chunked PUT without any length is spooled here first. */
  tmpDir: string;
  actionLogs: ActionLogService;
  /** WebDAV locks over the product's own (davlock: locks/dav-locks.ts). */
  locks: DavLocks;
  /** PROPPATCH's dead properties. */
  properties: DavPropertyRepository;
}
