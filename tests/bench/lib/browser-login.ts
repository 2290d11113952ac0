/** Logging the seeded administrator in through the login page, as the browser benchmarks start. */
import type { Page } from 'playwright-core';
import { API } from '../../../common/api/paths';
import type { CaptchaImage } from '../../../common/api/types';
import { outboxRecords } from '../../support/test-outbox';

const ADMIN = { username: 'admin', password: 'Admin@2024' };

/** The answer to a captcha, from the test outbox the server writes with DRIVE_TEST_HOOKS. */
export function captchaAnswer(dataDir: string, captchaId: string): string {
  const rec = outboxRecords(dataDir, 'captcha').find((r) => r.captchaId === captchaId);
  if (rec) return rec.answer;
  throw new Error(`no captcha answer for ${captchaId}`);
}

/** Fills and submits the login page; resolves once 个人文件 is the page shown. */
export async function logIn(page: Page, baseUrl: string, dataDir: string): Promise<void> {
  const captcha = page.waitForResponse((r) => r.url().includes(API.captcha) && r.ok());
  await page.goto(baseUrl + '/login');
  const { data } = (await (await captcha).json()) as { data: CaptchaImage };
  await page.getByTestId('login-username').fill(ADMIN.username);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-captcha').fill(captchaAnswer(dataDir, data.captchaId));
  await page.getByTestId('login-agreement').click();
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/main/file/personal**');
}
