import { formatDateTime } from '../../../common/format/date';

/** What a preview through a preview-only share carries: who looks, and when (server time, spec §9 format). */
export function watermarkText(account: string, now: number): string {
  return `${account} ${formatDateTime(now)}`;
}
