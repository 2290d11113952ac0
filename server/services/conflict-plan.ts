import { ERRORS } from '../../common/api/errors';
import type { ConflictDecision, NameConflict } from '../../common/api/types';
import type { FilesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { FileRepository, ListParent } from '../repositories/file-repository';
import { freeName, numberedLikePattern } from './naming';

/** An entry arriving at a place (copy, move, restore). */
export interface Arrival {
  row: FilesTable;
}

export type ArrivalPlan =
  | { kind: 'place'; row: FilesTable; name: string }
  /** Already in that folder under that name (a move onto its own folder): nothing to do. */
  | { kind: 'stay'; row: FilesTable }
  | { kind: 'skip'; row: FilesTable }
  /** Its content becomes a new version of `existing`. */
  | { kind: 'overwrite'; row: FilesTable; existing: FilesTable };

/**
 * Decides what happens to each arriving entry at a place, in two queries for the whole batch (the
 * clashing names, then the taken numbered variants). Any clash without a decision refuses the
 * whole batch with CONFLICT_DECISION_REQUIRED listing every clash, before anything changed.
 * Entries of the batch also clash with each other (two 'a.txt' from different folders).
 */
export async function planArrivals(
  files: FileRepository,
  parent: ListParent,
  rows: readonly FilesTable[],
  decisions: Readonly<Record<string, ConflictDecision>> | undefined,
  opts: { overwriteFolderAsRename?: boolean } = {},
): Promise<ArrivalPlan[]> {
  const keys = [...new Set(rows.map((r) => r.name.toLowerCase()))];
  const existing = new Map((await files.liveNamesAt(parent, keys)).map((r) => [r.name_key, r]));
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.name.toLowerCase(), (seen.get(r.name.toLowerCase()) ?? 0) + 1);
  const clashing = rows.filter((r) => existing.has(r.name.toLowerCase()) || seen.get(r.name.toLowerCase())! > 1);
  const taken = new Set<string>(existing.keys());
  for (const k of await files.namesLikeAt(parent, [...new Set(clashing.map((r) => numberedLikePattern(r.name)))])) taken.add(k);
  // Batch members placed so far, by key (they clash with later members).
  const placed = new Map<string, FilesTable>();

  const plans: ArrivalPlan[] = [];
  const conflicts: NameConflict[] = [];
  for (const row of rows) {
    const key = row.name.toLowerCase();
    const clash = existing.get(key) ?? placed.get(key);
    if (clash && clash.id === row.id) {
      plans.push({ kind: 'stay', row });
      continue;
    }
    if (!clash) {
      taken.add(key);
      placed.set(key, row);
      plans.push({ kind: 'place', row, name: row.name });
      continue;
    }
    const decision = decisions?.[row.id];
    if (!decision) {
      conflicts.push({ id: row.id, name: row.name, existingId: clash.id, existingIsDir: clash.is_dir === 1, suggestedName: freeName(row.name, taken) });
      continue;
    }
    if (decision === 'skip') {
      plans.push({ kind: 'skip', row });
      continue;
    }
    const isExisting = existing.get(key) === clash;
    if (decision === 'overwrite' && isExisting && row.is_dir === 0 && clash.is_dir === 0) {
      plans.push({ kind: 'overwrite', row, existing: clash });
      continue;
    }
    if (decision === 'overwrite' && (row.is_dir === 1 || clash.is_dir === 1) && !opts.overwriteFolderAsRename) {
      throw new AppError(ERRORS.FOLDER_OVERWRITE_UNSUPPORTED);
    }
    // 'rename' (and 'overwrite' onto another member of the same batch, which has no content yet).
    const name = freeName(row.name, taken);
    taken.add(name.toLowerCase());
    placed.set(name.toLowerCase(), row);
    plans.push({ kind: 'place', row, name });
  }
  if (conflicts.length > 0) {
    throw new AppError(ERRORS.CONFLICT_DECISION_REQUIRED, undefined, {}, { conflicts });
  }
  return plans;
}

/**
 * The existing entries a batch would give new content. Services check them with
 * AccessService.modifiable before anything changes, so a refused overwrite refuses the whole batch
 * up front (replaceContent refuses it again inside the write, whatever the path).
 */
export function overwriteTargets(plans: readonly ArrivalPlan[]): string[] {
  return plans.flatMap((p) => (p.kind === 'overwrite' ? [p.existing.id] : []));
}
