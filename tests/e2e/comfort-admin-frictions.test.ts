/**
 * Issue 44 item 10, the admin's small frictions, in Chromium as the tenant admin: 新建部门 names the
 * parent, Enter submits it, and the tree keeps what was open and shows the new department selected;
 * 用户管理 says 共 N 人 and gives each person's whole department path; every icon-only button of the
 * app's pages has a Chinese name and a tooltip; 锁定 is not the red of 删除; 公告管理 says 已读 X /
 * 应读 N and lists who of the audience read the notice and who has not. On a 390-px phone the same
 * dialog, count, path and reader list lie wholly on the screen and take a finger.
 * Setup that is not the walk (the reader's 已读) goes through the API, and pages are changed inside
 * the app (no reload per page): the file stays within the e2e budget of 40 s.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientHeaders } from '../../common/api/client-env';
import { API } from '../../common/api/paths';
import type { ManagedNotice } from '../../common/api/notices';
import type { UserListResponse } from '../../common/api/org-types';
import { MAIN_PAGES } from '../../src/app/route-table';
import { shot } from './shots';
import { loggedInJar } from '../support/drive-server';
import { addPeople, call, expectOnScreen, PHONE, searchBox, signInAdmin } from './tenant-kit';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession, revealFileRow, visitInApp } from './browser';

const RUN = Date.now().toString(36).slice(-6);
const TOP = `总部${RUN}`;
const MID = `研发部${RUN}`;
const LEAF = `前端组${RUN}`;
const SIDE = `市场部${RUN}`;
const SIDE_CHILD = `华东区${RUN}`;
const MATE = `leaf.${RUN}`;
const OTHER = `mid.${RUN}`;
const NOTICE = `季度通知${RUN}`;
const ok = /确\s*定/;
const PASSWORD = 'Admin#2024c';

const treeItem = (page: Page, name: string) => page.getByTestId('department-tree').getByTestId(`dept-${name}`);

describe('issue 44 item 10: the admin pages', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;
  let topId = '';

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('comfort-admin-frictions', { viewport: { width: 1440, height: 900 } }));
    await loginAsAdmin(page);
    const top = await call<{ id: string }>(page, API.departmentCreate, { parentId: null, name: TOP });
    const mid = await call<{ id: string }>(page, API.departmentCreate, { parentId: top.id, name: MID });
    const leaf = await call<{ id: string }>(page, API.departmentCreate, { parentId: mid.id, name: LEAF });
    const side = await call<{ id: string }>(page, API.departmentCreate, { parentId: null, name: SIDE });
    await call(page, API.departmentCreate, { parentId: side.id, name: SIDE_CHILD });
    await addPeople(page, leaf.id, [MATE], { password: PASSWORD });
    await addPeople(page, mid.id, [OTHER], { password: PASSWORD });
    topId = top.id;
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  /** Opens 部门管理 with 研发部 expanded by hand and 前端组 selected. */
  async function openLeaf(): Promise<void> {
    await page.goto(baseUrl() + '/main/system/department');
    await treeItem(page, MID).waitFor();
    if ((await treeItem(page, MID).getAttribute('aria-expanded')) !== 'true') await treeItem(page, MID).locator('span[aria-hidden]').first().click();
    await treeItem(page, LEAF).click();
    await page.getByTestId('dept-create-child').waitFor();
  }

  it('新建子部门 names the parent in its title and its path in the dialog', async () => {
    await openLeaf();
    await page.getByTestId('dept-create-child').click();
    const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('dept-name-input') });
    await dialog.waitFor();
    await shot(page, 'item10', 'new-department-dialog');
    expect(await dialog.locator('.ant-modal-title').textContent()).toContain(LEAF);
    expect(await dialog.textContent()).toContain(`${TOP} / ${MID} / ${LEAF}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('Enter in the name box submits 新建部门', async () => {
    await openLeaf();
    await page.getByTestId('dept-create-child').click();
    const input = page.getByTestId('dept-name-input');
    await input.fill(`移动组${RUN}`);
    await input.press('Enter');
    await page.getByText('已新建部门').first().waitFor({ timeout: 5000 });
    await input.waitFor({ state: 'hidden' });
  });

  it('keeps the tree as it was open and shows the new department selected', async () => {
    // 市场部 is folded by hand; 研发部 (opened by hand) stays open after the creation.
    await openLeaf();
    await treeItem(page, SIDE).locator('span[aria-hidden]').first().click();
    expect(await treeItem(page, SIDE).getAttribute('aria-expanded')).toBe('false');
    await page.getByTestId('dept-create-child').click();
    await page.getByTestId('dept-name-input').fill(`小程序组${RUN}`);
    await page.getByRole('button', { name: ok }).click();
    await page.getByTestId('dept-name-input').waitFor({ state: 'hidden' });
    const created = treeItem(page, `小程序组${RUN}`);
    await created.waitFor({ timeout: 5000 });
    await expect.poll(() => created.getAttribute('aria-selected')).toBe('true');
    await shot(page, 'item10', 'new-department-tree');
    expect(await treeItem(page, MID).getAttribute('aria-expanded')).toBe('true');
    expect(await treeItem(page, LEAF).getAttribute('aria-expanded')).toBe('true');
    expect(await treeItem(page, SIDE).getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('department-page').textContent()).toContain(`${TOP} / ${MID} / ${LEAF} / 小程序组${RUN}`);
  });

  it('用户管理 says how many people match and gives the whole department path', async () => {
    await page.goto(baseUrl() + '/main/system/user/list');
    const all = await call<UserListResponse>(page, API.userList, { pageSize: 1000 });
    const total = page.getByTestId('user-total');
    await expect.poll(() => total.textContent().catch(() => null), { timeout: 5000 }).toBe(`共 ${all.items.length} 人`);
    await page.getByTestId('user-dept-tree').getByTestId(`dept-${TOP}`).click();
    await expect.poll(() => total.textContent()).toBe('共 2 人');
    const row = page.getByTestId(`user-row-${MATE}`);
    await row.waitFor();
    await shot(page, 'item10', 'user-list');
    await expect(row.getByTestId('user-dept-path').textContent()).resolves.toBe(`${TOP} / ${MID} / ${LEAF}`);
    await searchBox(page, 'user-search').fill(`nobody-${RUN}`);
    await searchBox(page, 'user-search').press('Enter');
    await expect.poll(() => total.textContent()).toBe('共 0 人');
  });

  it('锁定 is reversible, so not the red of 删除', async () => {
    await page.goto(baseUrl() + '/main/system/user/list');
    await searchBox(page, 'user-search').fill(MATE);
    await searchBox(page, 'user-search').press('Enter');
    const lock = page.getByTestId(`user-lock-${MATE}`);
    await lock.waitFor();
    expect(await page.getByTestId(`user-delete-${MATE}`).getAttribute('class')).toContain('ant-btn-dangerous');
    expect(await lock.getAttribute('class')).not.toContain('ant-btn-dangerous');
  });

  it('公告管理 shows 已读 X / 应读 N and who of the audience read the notice', async () => {
    const notice = await call<ManagedNotice>(page, API.noticeManageSave, { title: NOTICE, content: '<p>请阅读</p>', audience: { all: false, departmentIds: [topId], userIds: [] }, important: false, pinned: false, publish: 'now' });
    // The member reads it through the API: signing in a browser would be most of this test's time.
    const reader = await loggedInJar(baseUrl(), inject('dataDir'), { username: MATE, password: PASSWORD });
    const read = await reader.fetch(baseUrl() + API.sysMsgMarkRead, { method: 'POST', headers: { 'content-type': 'application/json', ...clientHeaders('web', 'internal') }, body: JSON.stringify({ ids: [notice.id] }) });
    expect(read.status).toBe(200);
    await page.goto(baseUrl() + '/main/system/notice');
    const row = page.getByTestId('managed-notice').filter({ hasText: NOTICE });
    await row.waitFor();
    await shot(page, 'item10', 'notice-list');
    await expect(row.getByTestId('notice-read-count').textContent({ timeout: 5000 })).resolves.toBe('已读 1 / 应读 2');
    await row.getByTestId('notice-read-count').click();
    const drawer = page.getByTestId('notice-readers');
    await drawer.getByTestId(`reader-${OTHER}`).waitFor();
    await shot(page, 'item10', 'notice-readers');
    expect(await drawer.getByTestId('notice-readers-summary').textContent()).toBe('已读 1 / 应读 2 人');
    expect(await drawer.getByTestId(`reader-${MATE}`).count()).toBe(0); // 未读 first: only who has not read it
    await drawer.getByText('已读 1', { exact: true }).click();
    await drawer.getByTestId(`reader-${MATE}`).waitFor();
    expect(await drawer.getByTestId(`reader-${MATE}`).textContent()).toContain(`${TOP} / ${MID} / ${LEAF}`);
    expect(await drawer.getByTestId(`reader-${OTHER}`).count()).toBe(0);
  });

  it('on a 390-px phone: 新建子部门 names the parent and takes Enter; 用户管理 counts and gives the path; the reader list fits', async () => {
    const { context, page: phone } = await signInAdmin(browser, PHONE);
    try {
      await phone.goto(baseUrl() + '/main/system/department');
      // The phone's tree is a third of the screen and the shared tenant's tree holds the departments of
      // every file before: an admin finds a department by its name there (it shows with its parents).
      await searchBox(phone, 'dept-search').fill(LEAF);
      await expectOnScreen(phone, treeItem(phone, LEAF), `${LEAF} in the tree`);
      await treeItem(phone, LEAF).tap();
      const create = phone.getByTestId('dept-create-child');
      await shot(phone, 'item10', 'phone-department');
      await expectOnScreen(phone, create, '新建子部门', { tap: true });
      await create.tap();
      const dialog = phone.getByRole('dialog').filter({ has: phone.getByTestId('dept-name-input') });
      await dialog.waitFor();
      await shot(phone, 'item10', 'phone-new-department-dialog');
      await expectOnScreen(phone, dialog.locator('.ant-modal-container'), 'the 新建子部门 dialog');
      expect(await dialog.locator('.ant-modal-title').textContent()).toContain(LEAF);
      expect(await dialog.textContent()).toContain(`${TOP} / ${MID} / ${LEAF}`);
      const input = phone.getByTestId('dept-name-input');
      await input.fill(`手机组${RUN}`);
      await input.press('Enter');
      await phone.getByText('已新建部门').first().waitFor({ timeout: 5000 });
      await input.waitFor({ state: 'hidden' });
      await expect.poll(() => treeItem(phone, `手机组${RUN}`).getAttribute('aria-selected')).toBe('true');

      await phone.goto(baseUrl() + '/main/system/user/list');
      const total = phone.getByTestId('user-total');
      await searchBox(phone, 'user-dept-search').fill(TOP); // the phone's tree, as 部门管理's
      await phone.getByTestId('user-dept-tree').getByTestId(`dept-${TOP}`).tap();
      await expect.poll(() => total.textContent()).toBe('共 2 人');
      await expectOnScreen(phone, total, '共 N 人');
      const row = phone.getByTestId(`user-row-${MATE}`);
      await row.waitFor();
      await shot(phone, 'item10', 'phone-user-list');
      await expect(row.getByTestId('user-dept-path').textContent()).resolves.toBe(`${TOP} / ${MID} / ${LEAF}`);
      await expectOnScreen(phone, row.getByTestId('user-dept-path'), 'the department path');
      await expectOnScreen(phone, row.getByTestId(`user-lock-${MATE}`), '锁定', { tap: true });
      await expectOnScreen(phone, row.getByTestId(`user-delete-${MATE}`), '删除', { tap: true });

      await phone.goto(baseUrl() + '/main/system/notice');
      const notice = phone.getByTestId('managed-notice').filter({ hasText: NOTICE });
      const count = notice.getByTestId('notice-read-count');
      await expect(count.textContent({ timeout: 5000 })).resolves.toBe('已读 1 / 应读 2');
      await shot(phone, 'item10', 'phone-notice-list');
      await expectOnScreen(phone, count, '已读 X / 应读 N', { tap: true });
      await count.tap();
      const drawer = phone.getByTestId('notice-readers');
      await drawer.getByTestId(`reader-${OTHER}`).waitFor();
      await phone.waitForTimeout(300);
      await shot(phone, 'item10', 'phone-notice-readers');
      await expectOnScreen(phone, phone.locator('.ant-drawer-content-wrapper').last(), 'the reader list');
      expect(await drawer.getByTestId('notice-readers-summary').textContent()).toBe('已读 1 / 应读 2 人');
      await drawer.getByText('已读 1', { exact: true }).tap();
      await expectOnScreen(phone, drawer.getByTestId(`reader-${MATE}`), 'a reader');
    } finally {
      await context.close();
    }
  });

  it('gives every icon-only button on the app’s pages a Chinese name and a tooltip', { timeout: 90_000 }, async () => {
    await call(page, API.mkdir, { parentId: null, category: 1, name: `图标检查${RUN}` }); // a row, with its ⋮
    const missing: string[] = [];
    const seen = new Set<string>();
    // Inside the app, as a person goes from page to page: a reload per page was half this test's time.
    for (const path of Object.keys(MAIN_PAGES).filter((p) => !p.endsWith('/user/edit'))) {
      await visitInApp(page, path);
      if (path === '/main/system/department') {
        await searchBox(page, 'dept-search').fill(MID); // below the tree's window in a crowded tenant
        await treeItem(page, MID).click();
      }
      if (path === '/main/system/user/list') await page.getByTestId(`user-row-${MATE}`).waitFor();
      if (path === '/main/file/personal') await revealFileRow(page, `图标检查${RUN}`);
      for (const { button, name, icon, titled } of await iconOnlyButtons(page)) {
        // The same control on every page (the header's bell, a row's ⋮) is checked once.
        const key = `${icon} ${name.replace(RUN, '').replace(/[：:].*$/, '').replace(/ \S+$/, '')}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (!/[\u4e00-\u9fff]/.test(name)) missing.push(`${path} ${icon}: no Chinese name ("${name}")`);
        else if (!titled && !(await hasTooltip(page, button))) missing.push(`${path} ${icon} "${name}": no tooltip`);
      }
    }
    expect(seen.size).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});

/**
 * Visible buttons whose only content is an icon, with their accessible name (the button's label, or
 * the label of the one icon inside) and the icon's name. Signs inside an input belong to the input,
 * not the page: a number box's ▲▼ (antd's own English labels, out of our reach), the ⓧ clear sign and
 * the password box's 显示 eye.
 */
async function iconOnlyButtons(page: Page): Promise<Array<{ button: Locator; name: string; icon: string; titled: boolean }>> {
  // One look at the whole page (a round trip per button was most of the walk's time on a loaded
  // machine); each button found is marked so the hover can find it again.
  const found = await page.evaluate(() => {
    document.querySelectorAll('[data-icon-only]').forEach((el) => el.removeAttribute('data-icon-only'));
    const out: Array<{ name: string; icon: string; titled: boolean }> = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, [role="button"]')) {
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || el.getClientRects().length === 0) continue;
      const img = el.querySelector('.anticon, svg');
      if (el.innerText.trim() !== '' || !img || el.closest('.ant-input-number-actions, .ant-input-number-handler-wrap, .ant-input-clear-icon, .ant-select, .ant-picker')) continue;
      if (el.matches('.ant-input-number-action, .ant-input-clear-icon, .ant-input-password-icon')) continue;
      const name = el.getAttribute('aria-label') ?? (el.querySelectorAll('[role="img"]').length === 1 ? el.querySelector('[role="img"]')!.getAttribute('aria-label') : null) ?? '';
      const icon = [...img.classList].find((c) => c.startsWith('anticon-')) ?? img.tagName;
      const titled = Boolean(el.getAttribute('title') || el.querySelector('[title]')?.getAttribute('title'));
      el.setAttribute('data-icon-only', String(out.length));
      out.push({ name, icon, titled });
    }
    return out;
  });
  return found.map((f, i) => ({ ...f, button: page.locator(`[data-icon-only="${i}"]`) }));
}

/** An antd tooltip on hover (a title on the button or its icon was seen when it was found). */
async function hasTooltip(page: Page, button: Locator): Promise<boolean> {
  // antd's Tooltip wraps a disabled button in a span that takes the hover.
  const target = (await button.isDisabled()) ? button.locator('xpath=..') : button;
  await target.hover({ force: true });
  const shown = await page
    .locator('.ant-tooltip:not(.ant-tooltip-hidden)')
    .first()
    .waitFor({ timeout: 1500 })
    .then(() => true, () => false);
  await page.mouse.move(0, 0);
  await page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').first().waitFor({ state: 'hidden', timeout: 1500 }).catch(() => undefined);
  return shown;
}
