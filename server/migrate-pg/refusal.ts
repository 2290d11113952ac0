/**
 * Exit codes of `npm run migrate:pg` (docs/postgresql.md, "Moving an installation"), and the error a
 * step throws when it must stop with an operator's message rather than a stack trace.
 */
export const EXIT = {
  ok: 0,
  /** Copied, but a count, checksum, foreign key or action-log chain does not match. */
  mismatch: 1,
  /** Could not run: bad arguments, source or target unreachable, an unexpected error. */
  failed: 2,
  /** Refused before copying anything wrong: source in use or outdated, target not ours, source changed. */
  refused: 3,
  /** Stopped by SIGINT/SIGTERM after the last whole batch; the same command resumes. */
  interrupted: 130,
} as const;

export class MigrateStop extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const refuse = (message: string): MigrateStop => new MigrateStop(EXIT.refused, message);
