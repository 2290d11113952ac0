/**
 * Issue 44 item 3 "Approval says too little", walked in Chromium with two people: a member applies
 * for a link to 「合同草案」; their department's manager sees a badge on 审批, a message naming the
 * applicant and the file that opens the application's drawer, where the file shows (view only,
 * watermarked) and 通过 with a comment decides it. The applicant's 我的申请, open all along, turns
 * 已通过 without a reload, and their message names the approver and the comment. On a 390-px phone the
 * menu button carries the badge, the drawer fits the screen, shows the file and rejects with a reason.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { ShareApplication } from '../../common/api/sharing';
import type { CreateTxtResponse } from '../../common/api/types';
import { baseUrl, launchBrowser } from './browser';
import { shot } from './shots';
import { addDepartment, addPeople, call, PHONE, requireLinkApproval, signIn, signInAdmin } from './tenant-kit';

const RUN = Date.now().toString(36).slice(-6);
const PASSWORD = 'Apply@2024x';
const APPLICANT = `applicant.${RUN}`;
const APPROVER = `approver.${RUN}`;
const TEAM = `审批部${RUN}`;
const FILE = `合同草案-${RUN}.txt`;
const SECOND = `报价单-${RUN}.txt`;
const pageErrors: string[] = [];

describe('approval says what it is about (issue 44 item 3)', () => {
  let browser: Browser;
  let admin: Page;
  let applicant: Page;
  let approver: Page;
  let first: ShareApplication;
  let second: ShareApplication;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = (await signInAdmin(browser)).page;
    const team = await addDepartment(admin, TEAM);
    const ids = await addPeople(admin, team, [APPLICANT, APPROVER], { password: PASSWORD });
    const manager = { id: ids[APPROVER]! };
    await call(admin, API.departmentUpdate, { id: team, managerId: manager.id });
    await requireLinkApproval(admin, true);

    applicant = (await signIn(browser, APPLICANT, PASSWORD, {}, pageErrors)).page;
    const made = await call<CreateTxtResponse>(applicant, API.createTxt, { parentId: null, category: 1, name: FILE, content: '第一条：甲方应于签约后付款。' });
    const other = await call<CreateTxtResponse>(applicant, API.createTxt, { parentId: null, category: 1, name: SECOND, content: '单价 100 元' });
    if (made.status !== 'created' || other.status !== 'created') throw new Error('files not created');
    const link = { code: '', validityDays: 7, downloadLimit: null, previewOnly: false };
    first = await call<ShareApplication>(applicant, API.applySubmit, { kind: 'link', fileIds: [made.file.id], link, reason: '客户要看合同', approverId: manager.id });
    second = await call<ShareApplication>(applicant, API.applySubmit, { kind: 'link', fileIds: [other.file.id], link, reason: '发给供应商', approverId: manager.id });
    // The applicant keeps 我的申请 open from here on.
    await applicant.goto(baseUrl() + '/main/safe/myApply');
    await applicant.getByTestId(`apply-state-${first.id}`).getByText('待审批').waitFor();
  });
  afterAll(async () => {
    await requireLinkApproval(admin, false).catch(() => undefined);
    await browser?.close();
  });

  it('the approver sees how many wait on 审批, and a message naming the applicant and the file', async () => {
    approver = (await signIn(browser, APPROVER, PASSWORD, {}, pageErrors)).page;
    // The folded group 分享审批 carries the count; opened, 审批 itself.
    const menu = approver.getByTestId('side-menu');
    await menu.locator('.ant-menu-submenu-title', { hasText: '分享审批' }).click();
    const badge = menu.getByTestId('menu-badge-safe-dealApply');
    await badge.waitFor({ timeout: 5000 }).catch(() => undefined);
    await shot(approver, '3', 'approver-menu');
    expect(await badge.getAttribute('data-count')).toBe('2');
    expect(await menu.getByTestId('menu-badge-safe').getAttribute('data-count')).toBe('2');

    await approver.goto(baseUrl() + '/main/notice/fileNotice');
    const message = approver.getByTestId('file-message').filter({ hasText: FILE });
    await approver.getByTestId('file-message').first().waitFor();
    await shot(approver, '3', 'approver-messages');
    expect(await message.locator('.nt-title').textContent()).toBe(`昵称${APPLICANT} 申请外链分享 「${FILE}」，等待你审批`);
  });

  it('the message opens the drawer with the file shown (view only) and 通过 with a comment; the badge follows', async () => {
    await approver.getByTestId('file-message').filter({ hasText: FILE }).click();
    await approver.waitForURL(`**/main/safe/dealApply?id=${first.id}`);
    const drawer = approver.getByTestId('application-drawer');
    await drawer.waitFor();
    const text = drawer.getByTestId('application-preview-text');
    await text.getByText('第一条：甲方应于签约后付款。').waitFor({ timeout: 5000 }).catch(() => undefined);
    await shot(approver, '3', 'approver-drawer');
    expect(await text.textContent()).toBe('第一条：甲方应于签约后付款。');
    expect(await drawer.getByTestId('watermark').getAttribute('data-watermark')).toMatch(new RegExp(`^昵称${APPROVER.replace('.', '\\.')} ${APPROVER.replace('.', '\\.')} `)); // name, account, time
    await drawer.getByTestId('application-comment-input').fill('同意，注意保密');
    await approver.getByTestId('application-approve').click();
    await drawer.getByTestId('application-state').getByText('已通过').waitFor();
    expect(await drawer.getByTestId('application-comment').textContent()).toBe('同意，注意保密');
    // Decided: no more buttons, and one application left on the badge.
    expect(await approver.getByTestId('application-decision').count()).toBe(0);
    await approver.locator('[data-testid="menu-badge-safe-dealApply"][data-count="1"]').waitFor();
    await shot(approver, '3', 'approver-decided');
  });

  it('the applicant’s 我的申请 turns 已通过 without a reload; the message names the approver and the comment and opens the application', async () => {
    const state = applicant.getByTestId(`apply-state-${first.id}`);
    await state.getByText('已通过').waitFor({ timeout: 10_000 }).catch(() => undefined);
    await shot(applicant, '3', 'applicant-my-apply');
    expect(await state.textContent()).toBe('已通过');

    await applicant.goto(baseUrl() + '/main/notice/fileNotice');
    const message = applicant.getByTestId('file-message').first();
    await message.waitFor();
    await shot(applicant, '3', 'applicant-message');
    expect(await message.locator('.nt-title').textContent()).toBe(`昵称${APPROVER} 通过了你对 「${FILE}」 的外链分享申请，审批意见：同意，注意保密`);
    await message.click();
    await applicant.waitForURL(`**/main/safe/myApply?id=${first.id}`);
    const drawer = applicant.getByTestId('application-drawer');
    await drawer.getByTestId('application-state').getByText('已通过').waitFor();
    // The applicant sees their own file too, and is offered no decision.
    await drawer.getByTestId('application-files').getByText(FILE).waitFor();
    expect(await applicant.getByTestId('application-decision').count()).toBe(0);
  });

  it('on a 390-px phone: the menu button carries the badge, the drawer fits, shows the file and rejects with a reason', async () => {
    const { context, page } = await signIn(browser, APPROVER, PASSWORD, PHONE, pageErrors);
    const dot = page.getByTestId('open-menu-badge');
    await page.locator('[data-testid="open-menu-badge"][data-count="1"]').waitFor({ timeout: 5000 }).catch(() => undefined);
    await shot(page, '3', 'phone-header');
    expect(await dot.getAttribute('data-count')).toBe('1');
    await page.getByTestId('open-menu').tap();
    const menu = page.getByTestId('menu-drawer');
    // The folded group 分享审批 says it too; opened, so does 审批.
    const groupBadge = menu.getByTestId('menu-badge-safe');
    await groupBadge.waitFor();
    expect(await groupBadge.getAttribute('data-count')).toBe('1');
    await menu.locator('.ant-menu-submenu-title', { hasText: '分享审批' }).tap();
    const menuBadge = menu.getByTestId('menu-badge-safe-dealApply');
    await menuBadge.waitFor();
    expect(await menuBadge.getAttribute('data-count')).toBe('1');
    await menu.locator('li.ant-menu-item', { has: page.getByTestId('menu-badge-safe-dealApply') }).tap();
    await page.waitForURL('**/main/safe/dealApply');
    await page.getByTestId(`deal-detail-${second.id}`).tap();
    const drawer = page.getByTestId('application-drawer');
    await drawer.getByTestId('application-preview-text').getByText('单价 100 元').waitFor();
    const panel = (await page.locator('.ant-drawer-content-wrapper').last().boundingBox())!;
    expect(panel.width).toBeLessThanOrEqual(390);
    const reject = page.getByTestId('application-reject');
    const box = (await reject.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await shot(page, '3', 'phone-drawer');
    // Rejecting needs a reason.
    await reject.tap();
    await page.getByText('请填写驳回理由').waitFor();
    await drawer.getByTestId('application-comment-input').fill('报价未经财务确认');
    await reject.tap();
    await drawer.getByTestId('application-state').getByText('已驳回').waitFor();
    await page.locator('[data-testid="open-menu-badge"][data-count="0"]').waitFor();
    await context.close();
  });

  it('threw no page error on the way', () => {
    expect(pageErrors).toEqual([]);
  });
});
