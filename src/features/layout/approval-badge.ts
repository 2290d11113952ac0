import { useMemo } from 'react';
import type { MenuItem } from '../../../common/api/types';
import { useApprovalTodoCount } from '../../lib/data/sharing';

/** The menu codes of 审批 and of the group holding it (server/services/config-service.ts). */
export const APPROVAL_ITEM = 'safe-dealApply';
export const APPROVAL_GROUP = 'safe';

function hasItem(items: readonly MenuItem[], code: string): boolean {
  return items.some((i) => i.code === code || (i.children ? hasItem(i.children, code) : false));
}

/** How many applications wait for the caller; asked only when their menu offers 审批 (else 0). */
export function useApprovalBadge(items: readonly MenuItem[]): number {
  return useApprovalTodoCount(useMemo(() => hasItem(items, APPROVAL_ITEM), [items]));
}
