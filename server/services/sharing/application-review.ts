import { ERRORS } from '../../../common/api/errors';
import type { ApplicationTodoCount } from '../../../common/api/endpoints/applications';
import { AppError } from '../../http/app-error';
import type { ApplicationRepository } from '../../repositories/application-repository';
import type { FileRepository } from '../../repositories/file-repository';
import { actionLog, fileTarget, target } from '../action-log/recorder';
import type { Caller } from '../caller';
import type { DownloadService, Preview } from '../download-service';
import type { ByteGate } from './byte-gate';
import { watermarkText } from './watermark-text';

export interface ApplicationReviewDeps {
  apps: ApplicationRepository;
  files: FileRepository;
  downloads: Pick<DownloadService, 'shown'>;
  gate: ByteGate;
}

/**
 * What an approver has to decide by (issue 44): how many applications wait for them (the 审批
 * badge), and a look at the files an application asks to let out. The look is the grant `approval`
 * of common/api/byte-access.ts — the current approver of a pending application, the files it names,
 * a rendition as a 预览 share shows it (watermarked pictures, `no-store`) — asked through the one
 * byte decision (ByteGate) like every other preview. Whoever else asks, or once the application is
 * decided, withdrawn or past its time, gets 404: an application is known only to the people it involves.
 */
export class ApplicationReviewService {
  constructor(private readonly deps: ApplicationReviewDeps) {}

  async todoCount(caller: Caller, now = Date.now()): Promise<ApplicationTodoCount> {
    return { count: await this.deps.apps.countPendingFor(caller.tenantId, caller.userId, now) };
  }

  async preview(caller: Caller, applicationId: string, fileId: string, now = Date.now()): Promise<Preview> {
    const entry = { action: 'apply.preview' as const, targets: [target('application', applicationId, ''), target('file', fileId, '')] };
    actionLog.record(entry);
    const app = await this.deps.apps.find(caller.tenantId, applicationId);
    const waitsForCaller = app && app.state === 'pending' && Number(app.expires_at) > now && app.approver_id === caller.userId;
    if (!app || !waitsForCaller) throw new AppError(ERRORS.APPLY_NOT_FOUND);
    const named = JSON.parse(app.file_ids) as string[];
    const files = await this.deps.files.findManyInTenant(caller.tenantId, named);
    entry.targets[0] = target('application', app.id, files.map((f) => f.name).join('、').slice(0, 200));
    // Only a file the application names itself (a folder's content is not what the approver was shown).
    const row = named.includes(fileId) ? files.find((f) => f.id === fileId) : undefined;
    if (!row || row.deleted_at != null) throw new AppError(ERRORS.NOT_FOUND);
    entry.targets[1] = fileTarget(row);
    if (row.is_dir === 1) throw new AppError(ERRORS.PREVIEW_UNSUPPORTED);
    if (!row.blob_id) throw new AppError(ERRORS.NOT_FOUND);
    await this.deps.gate.assertExchange(caller, [row], 'view');
    const plan = this.deps.gate.view(row.name, { via: 'approval' });
    const watermark = plan.rendition.as === 'watermarked-picture' ? watermarkText(caller.username, now) : null;
    return { file: await this.deps.downloads.shown(caller.tenantId, row.name, row.blob_id, plan), plan, watermark };
  }
}
