/** The queue as JSON for testers to replay (`npm run replay`): no bytes, files are found by path. */
import type { QueueExport } from '../../common/transfer/engine-api';
import type { UploadRecord } from '../queue/types';

export function toQueueExport(records: readonly UploadRecord[], exportedAt: number): QueueExport {
  return {
    format: 'cloud-drive-queue',
    version: 1,
    exportedAt,
    items: records.map((r) => ({
      id: r.id,
      direction: r.direction,
      name: r.name,
      size: r.size,
      ...(r.relativePath ? { relativePath: r.relativePath } : {}),
      fileId: r.fileId,
      target: { ...r.target },
      state: r.state,
      lastModified: r.lastModified,
      fingerprint: r.fingerprint,
      chunkSize: r.chunkSize,
      chunksDone: [...r.chunksDone],
      attempts: r.attempts,
      lastError: r.lastError,
    })),
  };
}
