/**
 * 更换手机号 in 账号安全, walked as a person does it (sms-flow and comfort-frictions): the login password
 * and a code sent to the phone bound now, then the new phone and its code. Codes and captcha answers
 * come from the server's test outbox.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { API } from '../../common/api/paths';
import type { CaptchaImage } from '../../common/api/types';
import { captchaAnswer, smsCodeFor, smsOutboxMark } from './browser';

/** The next captcha image the page is answered (its id names the answer in the outbox). */
export function nextCaptcha(page: Page): Promise<CaptchaImage> {
  return page.waitForResponse((r) => r.url().includes(API.captcha) && r.ok()).then(async (r) => ((await r.json()) as { data: CaptchaImage }).data);
}

/** Fills the `prefix` fields' captcha with the answer to the image that came with `captcha`. */
export async function answerCaptcha(page: Page, prefix: string, captcha: Promise<CaptchaImage>): Promise<void> {
  await page.getByTestId(`${prefix}-captcha`).fill(await captchaAnswer((await captcha).captchaId));
}

/** `138****0000`: how the app shows a phone number. */
export const maskedPhone = (phone: string): string => `${phone.slice(0, 3)}****${phone.slice(7)}`;

export interface PhoneChange {
  password: string;
  oldPhone: string;
  newPhone: string;
  /** Called once the dialog shows (a screenshot, a look at its size on a phone). */
  onOpen?: () => Promise<void>;
  /** How the controls are pressed: click on a desktop, tap on a phone. */
  press?: 'click' | 'tap';
}

/**
 * From 账号安全 (open on `page`): opens 更换手机号, proves the person with the password and a code sent to
 * the old phone (which the dialog names, masked), binds the new phone with its code, and waits until
 * the page shows the new number.
 */
export async function changePhone(page: Page, change: PhoneChange): Promise<void> {
  const press = (testId: string) => (change.press === 'tap' ? page.getByTestId(testId).tap() : page.getByTestId(testId).click());
  const verifyCaptcha = nextCaptcha(page);
  await press('account-safe-phone');
  await expect.poll(() => page.getByTestId('verify-old-phone').textContent()).toContain(maskedPhone(change.oldPhone));
  await change.onOpen?.();
  await page.getByTestId('bind-password').fill(change.password);
  await answerCaptcha(page, 'verify', verifyCaptcha);
  let mark = smsOutboxMark();
  // Sending uses the captcha up and shows a new one: the next step's comes after that.
  const refreshed = nextCaptcha(page);
  await press('verify-send');
  await page.getByTestId('verify-code').fill(await smsCodeFor(change.oldPhone, mark));
  await refreshed;
  const bindCaptcha = nextCaptcha(page);
  await press('bind-next');
  await page.getByTestId('bind-phone').fill(change.newPhone);
  await answerCaptcha(page, 'bind', bindCaptcha);
  mark = smsOutboxMark();
  await press('bind-send');
  await page.getByTestId('bind-code').fill(await smsCodeFor(change.newPhone, mark));
  const validated = page.waitForResponse((r) => r.url().endsWith(API.phoneValidate));
  await press('bind-phone-ok');
  expect((await validated).status()).toBe(200);
  await expect.poll(() => page.getByTestId('account-safe-phone-value').textContent()).toContain(maskedPhone(change.newPhone));
}
