/**
 * A content checksum per table that both engines compute alike: SHA-256 over every row in key
 * order (byte order on both), each row a JSON array of its values in a typed text form. Integers
 * arrive as bigint from both sides (source.ts reads with safe integers, target.ts parses int types
 * to bigint), so a value that changed on the way — rounded, truncated, re-encoded — changes the sum.
 */
import { createHash, type Hash } from 'node:crypto';

function typed(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return `i${value}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `i${value}` : `r${value}`;
  if (typeof value === 'string') return `s${value}`;
  if (Buffer.isBuffer(value)) return `b${value.toString('hex')}`;
  return `?${String(value)}`;
}

export class TableChecksum {
  private readonly hash: Hash = createHash('sha256');
  rows = 0;

  add(row: readonly unknown[]): void {
    this.hash.update(JSON.stringify(row.map(typed)));
    this.hash.update('\n');
    this.rows++;
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}

/** What identifies a source's content: its tables' names, row counts and checksums. */
export function fingerprintOf(sums: ReadonlyArray<{ table: string; rows: number; checksum: string }>): string {
  return createHash('sha256').update(JSON.stringify(sums.map((s) => [s.table, s.rows, s.checksum]))).digest('hex');
}
