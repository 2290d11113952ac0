/**
 * The goals of issue 36's load section, judged from the load suite's side-by-side metrics: each is
 * 'met' or 'not met: <why>' (or 'not measured' when its topology or phase did not run), so the JSON
 * line says which goal a run reached, not only its figures.
 */
type Metrics = Record<string, number | string>;

const SUFFIXES = ['Sqlite1', 'Pg3'] as const;
/** PostgreSQL-3's paced p99 at most this times SQLite-1's. */
export const P99_RATIO_GOAL = 1.5;
/** A paced run "carried the offered load" when it delivered at least this share of it. */
const DELIVERED_SHARE = 0.95;

const num = (m: Metrics, key: string): number | undefined => (typeof m[key] === 'number' ? (m[key] as number) : undefined);

function verdict(problems: string[], measured: boolean): string {
  if (!measured) return 'not measured';
  return problems.length ? `not met: ${problems.join('; ')}` : 'met';
}

export function loadGoals(m: Metrics): Metrics {
  const goals: Metrics = {};

  // 0 errors everywhere (list runs, uploads, same-file uploads and their reference counts, the kill).
  const errorKeys = SUFFIXES.flatMap((s) => [`loadListErrors${s}`, `loadUploadErrors${s}`, `sameFileErrors${s}`, `sameFileRefErrors${s}`]).concat('killUploadFailedFiles');
  const present = errorKeys.filter((k) => num(m, k) !== undefined);
  goals.loadGoalZeroErrors = verdict(
    present.filter((k) => num(m, k)! > 0).map((k) => `${k} ${m[k]}`),
    present.length > 0,
  );

  // sameFileBlobs 1 on each topology.
  const blobKeys = SUFFIXES.map((s) => `sameFileBlobs${s}`).filter((k) => num(m, k) !== undefined);
  goals.loadGoalSameFileBlobs = verdict(
    blobKeys.filter((k) => num(m, k) !== 1).map((k) => `${k} ${m[k]}`),
    blobKeys.length > 0,
  );

  // PostgreSQL-3's p99 within 1.5× SQLite-1's at the same offered load: both paced runs must have
  // carried that load, or the ratio compares different things.
  const offered = num(m, 'loadPacedRps');
  const sqliteP99 = num(m, 'loadListP99MsSqlite1');
  const pgP99 = num(m, 'loadListP99MsPg3');
  const p99Problems: string[] = [];
  if (offered !== undefined) {
    for (const s of SUFFIXES) {
      const delivered = num(m, `loadListPacedRps${s}`);
      if (delivered !== undefined && delivered < offered * DELIVERED_SHARE) p99Problems.push(`${s} delivered ${delivered}/s of the ${offered}/s offered`);
    }
  }
  if (sqliteP99 !== undefined && pgP99 !== undefined && pgP99 > sqliteP99 * P99_RATIO_GOAL) {
    p99Problems.push(`p99 ${pgP99} ms is ${(pgP99 / sqliteP99).toFixed(2)}× SQLite-1's ${sqliteP99} ms`);
  }
  goals.loadGoalP99Pg3 = verdict(p99Problems, sqliteP99 !== undefined && pgP99 !== undefined);

  // kill -9 of one of three processes during an upload phase costs 0 failed files.
  const killed = num(m, 'killUploadFailedFiles');
  goals.loadGoalKill = verdict(killed ? [`${killed} failed files`] : [], killed !== undefined);

  const verdicts = Object.values(goals).filter((v) => v !== 'not measured');
  goals.loadGoalsMet = `${verdicts.filter((v) => v === 'met').length}/${verdicts.length}`;
  return goals;
}
