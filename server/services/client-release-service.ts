import type { ClientReleaseSaveRequest } from '../../common/api/endpoints/client-releases';
import { API } from '../../common/api/paths';
import { ERRORS } from '../../common/api/errors';
import type { ClientInstaller, ClientRelease, ClientVersion } from '../../common/api/types';
import type { ClientReleasesTable, FilesTable, TenantsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { ClientReleaseRepository } from '../repositories/client-release-repository';
import type { FileRepository } from '../repositories/file-repository';
import type { TenantRepository } from '../repositories/tenant-repository';
import { actionLog, fileTarget, target } from './action-log/recorder';
import type { Caller } from './caller';
import type { DownloadService, Downloadable } from './download-service';
import type { ByteGate } from './sharing/byte-gate';
import type { AccessService } from './space-access';

export type ClientType = 3 | 4;
const CLIENT_TYPE_LABELS: Record<ClientType, string> = { 3: '内网客户端', 4: '外网客户端' };

export interface ClientReleaseServiceDeps {
  releases: ClientReleaseRepository;
  tenants: TenantRepository;
  files: FileRepository;
  access: AccessService;
  gate: ByteGate;
  downloads: DownloadService;
  /** The installation-wide default (DESKTOP_VERSION_*), answered where a tenant has set no release. */
  fallback: ClientVersion | undefined;
}

/**
 * 客户端版本 (issue 38): each tenant's desktop release per client type, in the database. The version
 * check answers the caller's tenant (the default tenant before login); the installer is the file an
 * admin uploaded through the engine and named here — one the admin could download when they named it,
 * read from its entry each time (deleted since: none).
 */
export class ClientReleaseService {
  constructor(private readonly deps: ClientReleaseServiceDeps) {}

  private async tenantOf(caller: Caller | null, tenantId?: string): Promise<TenantsTable> {
    const tenant = caller ? await this.deps.tenants.findById(caller.tenantId) : tenantId ? await this.deps.tenants.findById(tenantId) : await this.deps.tenants.findDefault();
    const found = tenant ?? (await this.deps.tenants.findDefault());
    if (!found) throw new AppError(ERRORS.INTERNAL, 'no tenant configured');
    return found;
  }

  private async installerFile(row: ClientReleasesTable): Promise<FilesTable | null> {
    if (!row.file_id) return null;
    const file = await this.deps.files.findInTenant(row.tenant_id, row.file_id);
    return file && file.deleted_at == null && file.is_dir === 0 && file.blob_id ? file : null;
  }

  /** `GET /api/clientVersion/get?clientType=`: the release for this client type, from the database. */
  async current(caller: Caller | null, clientType: ClientType): Promise<ClientVersion> {
    const tenant = await this.tenantOf(caller);
    const row = await this.deps.releases.find(tenant.id, clientType);
    if (!row) return this.deps.fallback ?? { isForce: false, versionName: '', versionDesc: '' };
    const file = await this.installerFile(row);
    return {
      isForce: row.is_force === 1,
      versionName: row.version_name,
      versionDesc: row.version_desc,
      ...(file ? { installer: await this.installerOf(tenant.id, clientType, file) } : {}),
    };
  }

  private async installerOf(tenantId: string, clientType: ClientType, file: FilesTable): Promise<ClientInstaller> {
    const blob = await this.deps.files.findBlob(tenantId, file.blob_id!);
    // A fingerprint of chunk size 0 was given up (fingerprint-upgrade): nothing to check against.
    const digest = blob && blob.fingerprint_chunk_size ? { fingerprint: blob.fingerprint, chunkSize: Number(blob.fingerprint_chunk_size) } : undefined;
    return {
      url: `${API.clientInstaller}?clientType=${clientType}&t=${encodeURIComponent(tenantId)}`,
      name: file.name,
      size: Number(file.size),
      ...(digest ? { digest } : {}),
    };
  }

  async list(caller: Caller): Promise<ClientRelease[]> {
    const rows = new Map((await this.deps.releases.all(caller.tenantId)).map((r) => [r.client_type, r]));
    const out: ClientRelease[] = [];
    for (const clientType of [3, 4] as const) out.push(await this.toRelease(clientType, rows.get(clientType)));
    return out;
  }

  private async toRelease(clientType: ClientType, row: ClientReleasesTable | undefined): Promise<ClientRelease> {
    if (!row) return { clientType, versionName: '', versionDesc: '', isForce: false, file: null, updatedAt: null };
    const file = await this.installerFile(row);
    return {
      clientType,
      versionName: row.version_name,
      versionDesc: row.version_desc,
      isForce: row.is_force === 1,
      file: file ? { id: file.id, name: file.name, size: Number(file.size) } : null,
      updatedAt: Number(row.updated_at),
    };
  }

  async save(caller: Caller, req: ClientReleaseSaveRequest, now = Date.now()): Promise<ClientRelease> {
    const clientType = req.clientType as ClientType;
    const before = await this.deps.releases.find(caller.tenantId, clientType);
    const beforeFile = before ? await this.installerFile(before) : null;
    const to: Record<string, unknown> = { versionName: req.versionName, versionDesc: req.versionDesc, isForce: req.isForce, fileId: req.fileId };
    const entry = {
      action: 'tenant.clientRelease' as const,
      targets: [target('setting', `clientVersion/${clientType}`, CLIENT_TYPE_LABELS[clientType])],
      detail: {
        clientType,
        // The installers by name too: the 详情 reads them without looking the ids up.
        from: before ? { versionName: before.version_name, isForce: before.is_force === 1, fileId: before.file_id, installer: beforeFile?.name ?? null } : null,
        to,
      },
    };
    actionLog.record(entry);
    if (req.fileId) {
      // The installer must be a file the admin may download (their own, a space's), not a folder.
      const file = await this.deps.access.entry(caller, req.fileId);
      to.installer = file.row.name;
      entry.targets.push(fileTarget(file.row));
      if (file.row.is_dir === 1) throw new AppError(ERRORS.IS_FOLDER);
      await this.deps.gate.assert(caller, [file], 'download');
    }
    await this.deps.releases.save({
      tenant_id: caller.tenantId,
      client_type: clientType,
      version_name: req.versionName,
      version_desc: req.versionDesc.trim(),
      is_force: req.isForce ? 1 : 0,
      file_id: req.fileId,
      updated_by: caller.userId,
      updated_at: now,
    });
    return this.toRelease(clientType, await this.deps.releases.find(caller.tenantId, clientType));
  }

  /** The installer a release names (NOT_FOUND when none, or its file is gone). */
  async installer(caller: Caller | null, clientType: ClientType, tenantId: string | undefined): Promise<Downloadable> {
    actionLog.notAnAction();
    // The address names its tenant (a client asks before login); without it, the caller's.
    const tenant = await this.tenantOf(tenantId ? null : caller, tenantId);
    const row = await this.deps.releases.find(tenant.id, clientType);
    const file = row ? await this.installerFile(row) : null;
    if (!file) throw new AppError(ERRORS.NOT_FOUND);
    return this.deps.downloads.ofBlob(tenant.id, file.name, file.blob_id!);
  }
}
