/**
 * The static data list `quota` (spec §3 "static data lists: quota, customerTelephone, validity"): the
 * storage quotas an admin may give an account. QUOTA_CHOICES is the list every tenant starts with
 * (common/api/dictionaries.ts); each tenant's admin relabels, reorders, turns off or changes entries
 * in 系统配置 (POST /api/dict/item/update), and from then on the tenant's list is the one that counts:
 * the user form and the import template offer it (POST /api/staticData/list), and the server checks
 * every add, edit and imported row against it (DictService.quotaChoices), so the two never disagree.
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

/** The largest quota an entry of the list may give (1 PiB): a typo of a few digits is refused. */
export const QUOTA_MAX_BYTES = 1024 ** 5;

/** An entry's value as a quota: whole bytes, 1 B … QUOTA_MAX_BYTES; else null. */
export function quotaBytesOf(value: string): number | null {
  if (!/^\d{1,16}$/.test(value.trim())) return null;
  const bytes = Number(value.trim());
  return bytes > 0 && bytes <= QUOTA_MAX_BYTES ? bytes : null;
}

/** A tenant's `quota` list (its dictionary entries) as choices: the enabled entries with a valid value, in order. */
export function quotaChoicesOf(items: readonly { label: string; value: string; enabled: boolean }[]): QuotaChoice[] {
  const out: QuotaChoice[] = [];
  for (const item of items) {
    const bytes = item.enabled ? quotaBytesOf(item.value) : null;
    if (bytes !== null && !out.some((c) => c.bytes === bytes)) out.push({ label: item.label, bytes });
  }
  return out;
}

/** What a new account gets when no quota is given: 10GB when the list offers it, else the list's first entry. */
export function defaultQuotaOf(choices: readonly QuotaChoice[]): QuotaChoice {
  return choices.find((c) => c.bytes === DEFAULT_QUOTA_CHOICE.bytes) ?? choices[0] ?? DEFAULT_QUOTA_CHOICE;
}

export function quotaAllowed(bytes: number, choices: readonly QuotaChoice[] = QUOTA_CHOICES): boolean {
  return choices.some((q) => q.bytes === bytes);
}

const squeeze = (s: string) => s.replace(/\s+/g, '').toUpperCase();

/** A sheet cell's quota (an entry's label, `10GB`, `10 gb`, `10G`, `1TB`, or an entry's byte count) → bytes, or null. */
export function parseQuotaLabel(raw: string, choices: readonly QuotaChoice[] = QUOTA_CHOICES): number | null {
  const text = squeeze(raw);
  if (!text) return null;
  const named = choices.find((c) => squeeze(c.label) === text);
  if (named) return named.bytes;
  const unit = text.match(/^(\d+)(GB|G|TB|T)$/);
  if (unit) {
    const bytes = Number(unit[1]) * (unit[2]!.startsWith('T') ? 1024 * GIB : GIB);
    return quotaAllowed(bytes, choices) ? bytes : null;
  }
  if (/^\d+$/.test(text) && quotaAllowed(Number(text), choices)) return Number(text);
  return null;
}

export function quotaLabel(bytes: number, choices: readonly QuotaChoice[] = QUOTA_CHOICES): string {
  return choices.find((q) => q.bytes === bytes)?.label ?? `${(bytes / GIB).toFixed(2)}GB`;
}
