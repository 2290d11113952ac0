import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';

/**
 * The documents pipeline seen by a tenant's admins (issue 41; docs/documents.md): how many of the
 * tenant's documents wait, convert, are done or failed, the failures with their reasons, and whether
 * the converter is installed on the server; 重试 queues failures again.
 */

export type DocumentJobState = 'queued' | 'running' | 'done' | 'failed';

export interface DocumentFailure {
  /** The job's id (one job per stored content). */
  jobId: string;
  /** The name of the file it was made for. */
  name: string;
  /** Why, in Chinese (转换超时…, LibreOffice 处理失败…, 文件超过转换大小上限…). */
  error: string;
  attempts: number;
  /** ms since the epoch. */
  failedAt: number | null;
}

export interface DocumentPipelineStatus {
  counts: Record<DocumentJobState, number>;
  /** The latest failures (at most 50). */
  failures: DocumentFailure[];
  converter: {
    /** LibreOffice and poppler-utils are both there: Office documents are converted. */
    installed: boolean;
    /** Debian packages the server lacks (empty when installed). */
    missing: string[];
    /** How conversions are kept off the network: a network namespace of their own, or only no proxy. */
    isolation: 'netns' | 'user-netns' | 'no-proxy';
    /** Conversions run at once by each server process. */
    workers: number;
    timeLimitMs: number;
    maxBytes: number;
  };
}

/** `jobIds`: the failures to queue again (absent: every failure of the tenant). */
export const DocumentRetryBody = Type.Object(
  { jobIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100 })) },
  { additionalProperties: false },
);
export type DocumentRetryRequest = Static<typeof DocumentRetryBody>;

export const DOCUMENTS = {
  /** Ours, admins: the tenant's documents pipeline (counts, failures, the converter). */
  status: endpoint({ method: 'GET', path: '/api/v2/documents/status', access: 'admin', action: null, response: data<DocumentPipelineStatus>() }),
  /**
   * Ours, admins: failed conversions are queued again (action log: the files retried). Ids that are no
   * failure of the caller's tenant answer NOT_FOUND when none is.
   */
  retry: endpoint({ method: 'POST', path: '/api/v2/documents/retry', access: 'admin', action: 'file.renditionRetry', body: DocumentRetryBody, response: data<{ retried: number }>() }),
};
