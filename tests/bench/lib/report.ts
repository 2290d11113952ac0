/** Output helpers shared by every benchmark module. */

export interface BenchRow {
  label: string;
  cells: Record<string, string>;
}

/** A benchmark module: runs, prints nothing itself, returns rows for the table and flat metrics for JSON. */
export interface BenchModule {
  name: string;
  /** Column names, in order (the first column is the row label). */
  columns: string[];
  run(): Promise<{ rows: BenchRow[]; metrics: Record<string, number | string> }>;
}

export function formatTable(title: string, columns: string[], rows: BenchRow[]): string {
  const body = rows.map((r) => [r.label, ...columns.slice(1).map((c) => r.cells[c] ?? '')]);
  const widths = columns.map((c, i) => Math.max(c.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [title, line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export const MIB = 1024 * 1024;

/** MB/s in the sense the field notes use (10^6 bytes per second). */
export function megabytesPerSecond(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}
