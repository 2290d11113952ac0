/**
 * Debugging aid: replays the planner alone on a plan input the simulation saved
 * (`SIM_DUMP_PLAN='deleteRemote x' npm run sync:fuzz -- --seed N`), printing the entries whose path
 * matches the pattern given and the plan. `node --import tsx tests/sync/replan.ts [pattern]`
 */
import { readFileSync } from 'node:fs';
import { describeOp } from '../../workers/sync/executor';
import { createIgnoreMatcher } from '../../workers/sync/names';
import { plan } from '../../workers/sync/planner';
import type { PlanInput } from '../../workers/sync/model';
import { DUMP_FILE } from './sim/simulate';

const saved = JSON.parse(readFileSync(DUMP_FILE, 'utf8')) as Omit<PlanInput, 'frozen' | 'heldByPolicy' | 'noMove' | 'isIgnored'> & {
  frozen: Array<[string, string]>;
  heldByPolicy: string[];
  noMove: string[];
};
const re = new RegExp(process.argv[2] ?? '.');
for (const l of saved.local) if (re.test(l.path)) console.log('L', l.path, l.fileId, l.isDir ? 'dir' : (l.fingerprint?.slice(0, 8) ?? '-'));
for (const j of saved.journal) if (re.test(j.path)) console.log('J', j.key, j.remoteId, j.fileId, j.isDir ? 'dir' : j.fingerprint?.slice(0, 8));
for (const r of saved.remote) if (re.test(r.path)) console.log('R', r.path, r.id, r.isDir ? 'dir' : r.fingerprint?.slice(0, 8));
const planned = plan({ ...saved, frozen: new Map(saved.frozen), heldByPolicy: new Set(saved.heldByPolicy), noMove: new Set(saved.noMove), isIgnored: createIgnoreMatcher([]) });
for (const op of planned.ops) console.log(describeOp(op));
for (const p of planned.problems) console.log('problem', p.side, p.path, p.reason);
