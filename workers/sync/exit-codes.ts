/**
 * The exit codes of `npm run sync` (cli.ts), in one place: scripts and the desktop tell the cases
 * apart by them, so each case keeps its number for good.
 */
export const EXIT = {
  /** The pass (or the watching run) ended with nothing left undone. */
  ok: 0,
  /** Something failed (listed on stderr as `failed: path: reason`), or an error ended the run. */
  failed: 1,
  /** The command line was wrong. */
  usage: 2,
  /** Deletes above the threshold wait for the person: nothing was deleted; `--confirm-deletes` lets them go. */
  deletesHeld: 3,
  /** Another sync engine is syncing this folder (its lock is held): nothing was done. */
  locked: 4,
  /** The server could not be reached (the message names the address and what failed): nothing was deleted. */
  unreachable: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
