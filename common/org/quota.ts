/**
 * The static data list `quota` (spec §3 "static data lists: quota, customerTelephone, validity"): the
 * storage quotas an admin may give an account. Defined here until the static-data call serves it; that
 * call should answer this list for `quota`, and every check (add, edit, batch import) uses
 * `quotaAllowed`, so the two can never disagree.
 */
const GIB = 1024 ** 3;

export interface QuotaChoice {
  /** What the UI and the import template show, and what a sheet cell may say. */
  label: string;
  bytes: number;
}

export const QUOTA_CHOICES: readonly QuotaChoice[] = [
  { label: '1GB', bytes: 1 * GIB },
  { label: '5GB', bytes: 5 * GIB },
  { label: '10GB', bytes: 10 * GIB },
  { label: '20GB', bytes: 20 * GIB },
  { label: '50GB', bytes: 50 * GIB },
  { label: '100GB', bytes: 100 * GIB },
  { label: '200GB', bytes: 200 * GIB },
  { label: '500GB', bytes: 500 * GIB },
  { label: '1TB', bytes: 1024 * GIB },
];

/** The quota new accounts get when none is chosen (the server's DEFAULT_QUOTA is 10 GiB too). */
export const DEFAULT_QUOTA_CHOICE: QuotaChoice = QUOTA_CHOICES[2]!;

export function quotaAllowed(bytes: number): boolean {
  return QUOTA_CHOICES.some((q) => q.bytes === bytes);
}

/** A sheet cell's quota (`10GB`, `10 gb`, `10G`, `1TB`, or a choice's byte count) → bytes, or null. */
export function parseQuotaLabel(raw: string): number | null {
  const text = raw.replace(/\s+/g, '').toUpperCase();
  if (!text) return null;
  const unit = text.match(/^(\d+)(GB|G|TB|T)$/);
  if (unit) {
    const bytes = Number(unit[1]) * (unit[2]!.startsWith('T') ? 1024 * GIB : GIB);
    return quotaAllowed(bytes) ? bytes : null;
  }
  if (/^\d+$/.test(text) && quotaAllowed(Number(text))) return Number(text);
  return null;
}

export function quotaLabel(bytes: number): string {
  return QUOTA_CHOICES.find((q) => q.bytes === bytes)?.label ?? `${(bytes / GIB).toFixed(2)}GB`;
}
