const pad = (n: number): string => String(n).padStart(2, '0');

/** Spec §9: `yyyy-MM-dd HH:mm`, in the viewer's local time. Invalid input gives '-'. */
export function formatDateTime(epochMs: number): string {
  if (!Number.isFinite(epochMs)) return '-';
  const d = new Date(epochMs);
  if (Number.isNaN(d.getTime())) return '-';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
