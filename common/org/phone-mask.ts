/**
 * How the address list shows other people's phones: a per-tenant rule (tenant_settings.phone_mask),
 * applied by the server before a phone leaves it, so a member's client never holds the full number.
 * - `middle` (default): the middle four digits hidden, 138****1234;
 * - `tail`: only the last four shown, *******1234;
 * - `hidden`: no phone at all ('');
 * - `full`: shown as stored.
 * A caller always sees their own phone in full; admins see full phones in 用户管理, never here.
 */
export type PhoneMaskRule = 'middle' | 'tail' | 'hidden' | 'full';

export const PHONE_MASK_RULES: ReadonlyArray<{ value: PhoneMaskRule; label: string; example: string }> = [
  { value: 'middle', label: '隐藏中间四位', example: '138****1234' },
  { value: 'tail', label: '只显示后四位', example: '*******1234' },
  { value: 'hidden', label: '不显示手机号', example: '' },
  { value: 'full', label: '完整显示', example: '13812341234' },
];

export const DEFAULT_PHONE_MASK: PhoneMaskRule = 'middle';

export function isPhoneMaskRule(value: unknown): value is PhoneMaskRule {
  return PHONE_MASK_RULES.some((r) => r.value === value);
}

export function maskPhone(phone: string, rule: PhoneMaskRule): string {
  if (!phone) return '';
  switch (rule) {
    case 'full':
      return phone;
    case 'hidden':
      return '';
    case 'tail':
      return '*'.repeat(Math.max(0, phone.length - 4)) + phone.slice(-4);
    case 'middle':
      if (phone.length < 8) return '*'.repeat(phone.length);
      return phone.slice(0, 3) + '****' + phone.slice(-4);
  }
}
