/**
 * Sends text messages. Production deployments plug in their provider's client here; the server ships
 * the development gateways of dev-sms-gateways.ts.
 */
export interface SmsGateway {
  send(phone: string, text: string, signal?: AbortSignal): Promise<void>;
}

/** The message carrying a verification code (Chinese, as the user reads it). */
export function smsCodeText(code: string, ttlMinutes: number): string {
  return `【企业云盘】您的验证码为${code}，${ttlMinutes}分钟内有效，请勿泄露给他人。`;
}
