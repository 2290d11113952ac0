/**
 * 文档预览 (issue 41) through the data layer: the tenant's documents pipeline as an admin sees it (in
 * the account's partition, so 系统配置 offline shows the last answer), asked again every few seconds
 * while documents wait or convert, and 重试 of failures.
 */
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { DOCUMENTS, type DocumentPipelineStatus, type DocumentRetryRequest } from '../../../common/api/endpoints/documents';
import { api } from '../api';

export const DOCUMENT_KEYS = { status: ['account', 'documentPipeline'] as const };

/** How often the card asks again while anything is queued or running. */
const BUSY_REFRESH_MS = 3000;

export function useDocumentPipeline(): UseQueryResult<DocumentPipelineStatus> {
  return useQuery({
    queryKey: DOCUMENT_KEYS.status,
    queryFn: ({ signal }) => api.call(DOCUMENTS.status, undefined, { signal }),
    refetchInterval: (query) => {
      const counts = query.state.data?.counts;
      return counts && counts.queued + counts.running > 0 ? BUSY_REFRESH_MS : false;
    },
  });
}

export function useRetryDocuments() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (req: DocumentRetryRequest) => api.call(DOCUMENTS.retry, req),
    onSettled: () => void client.invalidateQueries({ queryKey: DOCUMENT_KEYS.status }),
  });
}
