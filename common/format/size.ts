const UNITS = ['KB', 'MB', 'GB'] as const;

/**
 * Spec §9: sizes in B, KB, MB, GB with 2 decimals (1 KB = 1024 B). Bytes are whole, so they are
 * shown without decimals; GB is the largest unit (a 3 TB file reads "3072.00 GB").
 */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '-';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)} ${UNITS[unit]}`;
}
