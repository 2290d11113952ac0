/**
 * Sends text messages. Production deployments plug in their provider's client here; the server ships
 * the development gateways of dev-sms-gateways.ts.
 */
export interface SmsGateway {
  /**
   * Whether messages really reach phones. False for the development gateway that only logs them: then
   * nothing may depend on the user receiving a code beyond what worked before (更换手机号's code to
   * the old phone is asked only when this is true).
   */
  readonly delivers: boolean;
  send(phone: string, text: string, signal?: AbortSignal): Promise<void>;
}

/** The message carrying a verification code (Chinese, as the user reads it). */
export function smsCodeText(code: string, ttlMinutes: number): string {
  return `【企业云盘】您的验证码为${code}，${ttlMinutes}分钟内有效，请勿泄露给他人。`;
}
