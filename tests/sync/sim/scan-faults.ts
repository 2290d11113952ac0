/**
 * Scan errors in the simulation (issue 42): a local scan meets folders it cannot list (no permission,
 * EIO, a mount that went away) and paths that vanish between a folder's listing and the look at them
 * (ENOENT races); a cloud listing comes back without a folder's contents. Drawn from the seed.
 *
 * What each scan and listing really saw is kept (the ground truth), and every delete the engine plans
 * or makes is checked against it: no delete on either side unless the entry was observed absent by a
 * scan (or listing) that succeeded for that subtree. Reasons are the real engine's (node-fs.ts).
 */
import { scanIssueOf } from '../../../workers/sync/node-fs';
import type { Op } from '../../../workers/sync/model';
import { isInside, pathKey } from '../../../workers/sync/names';
import type { Rng } from './rng';

export type ScanFaultCode = 'EACCES' | 'EIO' | 'ENOTCONN' | 'ENOENT';

export interface ScanFault {
  path: string;
  code: ScanFaultCode;
}

/** Picks the faults of one scan among the entries it will meet (paths as spelled). */
export type PickScanFaults = (entries: ReadonlyArray<{ path: string; isDir: boolean }>) => ScanFault[];
/** Picks the folder (as listed) whose contents one cloud listing leaves out, or null. */
export type PickListFault = (folders: readonly string[]) => string | null;

/** What one scan or listing saw: the keys it listed, and the keys of the subtrees it could not read. */
export interface Observed {
  seen: Set<string>;
  failed: Set<string>;
}

export function observed(paths: Iterable<string>, failed: Iterable<string>): Observed {
  return { seen: new Set([...paths].map(pathKey)), failed: new Set([...failed].map(pathKey)) };
}

/** Is `key` at or under a subtree this observation could not read? */
export function underFailed(o: Observed, key: string): boolean {
  for (const f of o.failed) if (f === key || isInside(key, f)) return true;
  return false;
}

/** The scan issue a fault makes, as node-fs.ts reports it. */
export function issueOf(fault: ScanFault, isDir: boolean) {
  return scanIssueOf(Object.assign(new Error(fault.code), { code: fault.code }), fault.path, isDir);
}

export class FaultPlan {
  /** Faults drawn so far (the run's summary). */
  scanFaults = 0;
  listFaults = 0;

  constructor(
    private readonly rng: Rng,
    private readonly scanRate: number,
    private readonly listRate: number,
    /** Only while the users act: the clean finish sees everything. */
    private readonly active: () => boolean,
    private readonly trace: (line: string) => void,
  ) {}

  pickScan: PickScanFaults = (entries) => {
    if (!this.active() || entries.length === 0 || !this.rng.chance(this.scanRate)) return [];
    const faults: ScanFault[] = [];
    for (let n = 1 + (this.rng.chance(0.25) ? 1 : 0); n > 0; n--) {
      const e = this.rng.pick(entries);
      const r = this.rng.next();
      // Folders: no permission, an I/O error, a network mount gone; anything: vanished mid-scan.
      const code: ScanFaultCode = e.isDir ? (r < 0.4 ? 'EACCES' : r < 0.6 ? 'EIO' : r < 0.8 ? 'ENOTCONN' : 'ENOENT') : r < 0.5 ? 'EIO' : 'ENOENT';
      faults.push({ path: e.path, code });
    }
    this.scanFaults += faults.length;
    for (const f of faults) this.trace(`scan error ${f.code} at ${f.path}`);
    return faults;
  };

  pickList: PickListFault = (folders) => {
    if (!this.active() || folders.length === 0 || !this.rng.chance(this.listRate)) return null;
    this.listFaults++;
    const hole = this.rng.pick(folders);
    this.trace(`listing without the contents of ${hole}`);
    return hole;
  };
}

/**
 * The invariant on a plan: a delete on one side only where the other side's scan (or listing) of this
 * pass saw the entry absent and read its subtree without error; and nothing under a subtree either
 * side could not read is deleted at all.
 */
/** Keys a plan moves entries away from first (a move, a rename aside): what is deleted there later is another entry. */
export function movedAway(ops: readonly Op[]): { local: Set<string>; remote: Set<string> } {
  const away = { local: new Set<string>(), remote: new Set<string>() };
  for (const op of ops) {
    if (op.kind === 'moveLocal') away.local.add(op.fromKey);
    if (op.kind === 'conflictLocal') away.local.add(op.key);
    if (op.kind === 'moveRemote') away.remote.add(op.fromKey);
  }
  return away;
}

/** Is `key` at or under one of `keys`? */
export function vacated(keys: ReadonlySet<string>, key: string): boolean {
  for (const k of keys) if (k === key || isInside(key, k)) return true;
  return false;
}

export function checkPlanDeletes(ops: readonly Op[], local: Observed | null, remote: Observed | null): string[] {
  const failures: string[] = [];
  const away = movedAway(ops);
  for (const op of ops) {
    if (op.kind !== 'deleteRemote' && op.kind !== 'deleteLocal') continue;
    const key = pathKey(op.path);
    const absentSide = op.kind === 'deleteRemote' ? local : remote;
    if (absentSide === null) failures.push(`${op.kind} ${op.path}: planned without a scan of the other side`);
    else if (absentSide.seen.has(key) && !vacated(op.kind === 'deleteRemote' ? away.local : away.remote, key)) failures.push(`${op.kind} ${op.path}: the other side's scan saw it`);
    for (const [side, o] of [['local', local], ['remote', remote]] as const) {
      if (o && underFailed(o, key)) failures.push(`${op.kind} ${op.path}: under a subtree the ${side} ${side === 'local' ? 'scan' : 'listing'} could not read`);
    }
  }
  return failures;
}
