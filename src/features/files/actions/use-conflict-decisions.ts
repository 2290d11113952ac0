import { useCallback, useState } from 'react';
import type { FileEntry } from '../../../../common/api/types';
import { conflictItemsOf, type ConflictDecision, type ConflictItem } from './conflict-model';
import type { Decidable } from '../files-api';
import { useFeedback } from '../../../lib/feedback/feedback';

interface Pending {
  items: ConflictItem[];
  resolve: (decisions: Record<string, ConflictDecision> | null) => void;
}

export interface ConflictDecisions {
  /**
   * Runs a call that may answer CONFLICT_DECISION_REQUIRED: asks the user about each clash (the
   * ConflictModal), then sends the call again with the decisions. Null when the user cancelled.
   */
  withDecisions<T>(entries: FileEntry[], call: (decisions?: Record<string, ConflictDecision>) => Promise<Decidable<T>>): Promise<T | null>;
  /** Props of the <ConflictModal> that asks. */
  modal: { items: ConflictItem[] | null; onDone: (decisions: Record<string, ConflictDecision> | null) => void };
}

export function useConflictDecisions(): ConflictDecisions {
  const { message } = useFeedback();
  const [pending, setPending] = useState<Pending | null>(null);

  const ask = useCallback((items: ConflictItem[]) => new Promise<Record<string, ConflictDecision> | null>((resolve) => setPending({ items, resolve })), []);

  async function withDecisions<T>(entries: FileEntry[], call: (decisions?: Record<string, ConflictDecision>) => Promise<Decidable<T>>): Promise<T | null> {
    const first = await call();
    if (first.done) return first.result;
    const decisions = await ask(conflictItemsOf(first.conflicts, entries));
    if (!decisions) return null;
    const second = await call(decisions);
    if (second.done) return second.result;
    // Someone changed the target meanwhile: nothing was changed by this second call either.
    message.error('目标位置的文件已变化，请重试');
    return null;
  }

  return {
    withDecisions,
    modal: {
      items: pending?.items ?? null,
      onDone: (decisions) => {
        pending?.resolve(decisions);
        setPending(null);
      },
    },
  };
}
