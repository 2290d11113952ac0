/**
 * Issue 44 item 1: on a phone (390×844, touch) a member shares with a colleague. The people picker is
 * a full-screen sheet with its search on top and a list that takes the height; a tap anywhere on a
 * row picks the person (not only the small checkbox); a locked account is marked 锁定; the member
 * is not offered to themself. The row's ⋮ menu stays on the screen even from a row near the bottom.
 * The same picker serves the other journeys item 1 names: a group's owner adds members from the
 * members drawer, and an admin picks a notice's audience (departments and people) in 公告管理 — each
 * drawer and its button on the screen (a 736-px or 760-px drawer started off the phone's left edge).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../common/api/paths';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { closeBrowserSession, fileRow, openBrowserSession, submitLogin } from './browser';
import { shot } from './shots';
import { expectOnScreen, expectUncut, pageOverflowsSideways, PHONE, searchBox, signInAdmin } from './tenant-kit';

const VIEWPORT = { width: 390, height: 844 };
const RUN = Date.now().toString(36).slice(-6);
const PASSWORD = 'Pick@2024x';
const ME = `picker.${RUN}`;
const MATE = `mate.${RUN}`;
const LOCKED = `locked.${RUN}`;
const TEAM = `手机部${RUN}`;
const FOLDER = `手机分享${RUN}`;
const GROUP = `手机群组${RUN}`;

async function call<T>(page: Page, url: string, body: unknown): Promise<T> {
  const res = await page.evaluate(async ({ url, body }) => {
    const r = await fetch(url, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, json: (await r.json()) as { data: unknown } };
  }, { url, body });
  if (res.status !== 200) throw new Error(`${url}: ${JSON.stringify(res.json)}`);
  return res.json.data as T;
}

describe('people picker and row menu on a phone', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('people-picker-phone', { viewport: VIEWPORT, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }));
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
    const team = await call<{ id: string }>(page, API.departmentCreate, { parentId: null, name: TEAM });
    for (const account of [ME, MATE, LOCKED]) {
      // The locked colleague's name is long (as real ones with a post are): 锁定 must still show whole.
      const nickName = account === LOCKED ? `昵称${account}（华东区财务共享服务中心）` : `昵称${account}`;
      await call(page, API.userAdd, { website: account, nickName, phone: '', departmentId: team.id, role: 'member', quota: 1024 ** 3, outerLogin: false, password: encryptPassword(PASSWORD) });
    }
    // Setup the test is not about: no first-login password change; one colleague locked by an admin.
    const db = new SQLite(path.join(inject('dataDir'), 'drive.sqlite'));
    db.pragma('busy_timeout = 5000');
    db.prepare('update users set must_change_password = 0 where username in (?, ?, ?)').run(ME, MATE, LOCKED);
    db.prepare('update users set locked = 1 where username = ?').run(LOCKED);
    db.close();
    await page.context().clearCookies();
    await page.goto(inject('baseUrl') + '/login');
    await submitLogin(page, ME, PASSWORD);
    await page.waitForURL('**/main/file/personal**');
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('keeps a row’s ⋮ menu on the screen, opened low on the screen', async () => {
    await page.getByTestId('toolbar-mkdir').tap();
    await page.getByTestId('mkdir-name-input').fill(FOLDER);
    await page.getByRole('button', { name: /确\s*定/ }).tap();
    await fileRow(page, FOLDER).waitFor();
    // A file's menu is the longest (预览, 下载, 分享, …).
    const name = `计划-${RUN}.txt`;
    const source = path.join(workDir, name);
    writeFileSync(source, 'plan');
    await page.getByTestId('upload-input').setInputFiles(source);
    const row = fileRow(page, name);
    await row.waitFor({ timeout: 60_000 });
    // A long press / ⋮ near the bottom of the screen opens the menu there.
    const box = (await row.boundingBox())!;
    await row.dispatchEvent('contextmenu', { bubbles: true, clientX: box.x + 20, clientY: VIEWPORT.height - 40 });
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu').last();
    await menu.waitFor();
    await page.waitForTimeout(400); // the open motion ends where the menu stays
    const m = (await menu.boundingBox())!;
    expect(m.y).toBeGreaterThanOrEqual(0);
    expect(m.y + m.height).toBeLessThanOrEqual(VIEWPORT.height);
    const preview = (await page.getByTestId('menu-preview').boundingBox())!;
    expect(preview.y).toBeGreaterThanOrEqual(0);
    expect(preview.y + preview.height).toBeLessThanOrEqual(VIEWPORT.height);
    await page.getByTestId('menu-share').tap();
    await page.getByTestId('share-dialog').waitFor();
  });

  it('picks a colleague in a full-screen sheet: search on top, whole rows, locked marked, no self', async () => {
    await page.getByTestId('share-pick-people').tap();
    const picker = page.getByRole('dialog', { name: '选择共享对象' });
    await picker.waitFor();
    const sheet = (await picker.boundingBox())!;
    expect(sheet.width).toBeGreaterThanOrEqual(VIEWPORT.width - 2);
    expect(sheet.height).toBeGreaterThanOrEqual(VIEWPORT.height * 0.9);
    const search = picker.locator('[data-testid="org-picker-search"] input, input[data-testid="org-picker-search"]').first();
    const s = (await search.boundingBox())!;
    expect(s.x).toBeGreaterThanOrEqual(0);
    expect(s.x + s.width).toBeLessThanOrEqual(VIEWPORT.width);
    expect(s.y).toBeLessThan(VIEWPORT.height / 3);
    await search.fill(RUN);
    await search.press('Enter');
    const list = picker.getByTestId('org-picker-people');
    await list.getByTestId(`person-${MATE}`).waitFor();
    expect((await list.boundingBox())!.height).toBeGreaterThanOrEqual(300);
    expect((await list.boundingBox())!.width).toBeGreaterThanOrEqual(VIEWPORT.width - 48);
    // Yourself makes no sense as a recipient; the locked colleague is there but marked.
    await list.getByTestId(`person-${LOCKED}`).waitFor();
    expect(await list.getByTestId(`person-${ME}`).count()).toBe(0);
    await expect(list.getByTestId(`person-${LOCKED}`).textContent()).resolves.toContain('锁定');
    expect(await list.getByTestId(`person-${MATE}`).textContent()).not.toContain('锁定');
    await expectUncut(page, list.getByTestId(`person-${LOCKED}`).getByTestId('person-locked'), '锁定 beside the locked colleague');
    await shot(page, 'item1', 'phone-share-picker');
    // A tap on the name, not the checkbox, picks the person; a second tap unpicks.
    await list.getByTestId(`person-${MATE}`).getByText(`昵称${MATE}`).tap();
    await picker.getByTestId('org-picker-selected').getByText(`昵称${MATE}`).waitFor();
    await expect(picker.getByLabel(`选择 昵称${MATE}`).isChecked()).resolves.toBe(true);
    await picker.getByRole('button', { name: /确\s*定/ }).tap();
    await page.getByTestId('share-recipients').getByText(`昵称${MATE}`).waitFor();
  });

  it('adds a colleague to a group: the members drawer and 添加成员 on the screen, the picker without yourself', async () => {
    const group = await call<{ id: string }>(page, API.groupCreate, { name: GROUP });
    await page.goto(`${inject('baseUrl')}/main/group?space=${group.id}`);
    await page.getByTestId('group-members').tap();
    const add = page.getByTestId('member-add');
    await add.waitFor();
    await page.waitForTimeout(400); // the drawer's open motion ends where it stays
    await shot(page, 'item1', 'phone-group-members');
    await expectOnScreen(page, add, '添加成员', { tap: true });
    await add.tap();
    const picker = page.getByRole('dialog', { name: `添加成员到「${GROUP}」` });
    await picker.waitFor();
    expect((await picker.boundingBox())!.width).toBeGreaterThanOrEqual(VIEWPORT.width - 2);
    await searchBox(page, 'org-picker-search').fill(RUN);
    await searchBox(page, 'org-picker-search').press('Enter');
    const list = picker.getByTestId('org-picker-people');
    await list.getByTestId(`person-${LOCKED}`).waitFor();
    expect(await list.getByTestId(`person-${ME}`).count()).toBe(0);
    await expectUncut(page, list.getByTestId(`person-${LOCKED}`).getByTestId('person-locked'), '锁定 beside the locked colleague');
    await list.getByTestId(`person-${MATE}`).getByText(`昵称${MATE}`).tap();
    const ok = picker.getByRole('button', { name: /确\s*定/ });
    await expectOnScreen(page, ok, '确定', { tap: true });
    await ok.tap();
    await page.getByText('已添加 1 名成员').waitFor();
    const added = page.getByTestId(`member-${MATE}`);
    await added.waitFor();
    await shot(page, 'item1', 'phone-group-added');
    // The list fits the phone: the member's name, role and 移除 on the screen (the five-column table ran
    // off the right edge, 移除 out of reach).
    await expectOnScreen(page, added, 'the new member in the list');
    await expectOnScreen(page, page.getByTestId(`member-role-${MATE}`), 'the new member’s 角色', { tap: true });
    const remove = page.getByTestId(`member-remove-${MATE}`);
    await expectOnScreen(page, remove, '移除', { tap: true });
    await remove.tap();
    const pop = page.locator('.ant-popover:not(.ant-popover-hidden)').filter({ hasText: `移除成员 昵称${MATE}` });
    await pop.waitFor();
    await expectOnScreen(page, pop.locator('.ant-popover-container'), 'the 移除 confirmation');
    await pop.getByRole('button', { name: /移\s*除/ }).tap();
    await page.getByText('成员已移除').waitFor();
    await added.waitFor({ state: 'detached' });
  });

  it('an admin picks a notice’s audience on a phone: the form and 选择部门和人员 on the screen, departments and people picked', async () => {
    const { context, page: admin } = await signInAdmin(browser, PHONE);
    try {
      await admin.goto(`${inject('baseUrl')}/main/system/notice`);
      await admin.getByTestId('notice-new').tap();
      const form = admin.getByTestId('notice-form');
      await form.waitFor();
      await admin.waitForTimeout(400); // the drawer's open motion
      await expectOnScreen(admin, admin.getByTestId('notice-title'), '标题');
      const some = admin.getByTestId('notice-audience').getByText('指定部门和人员');
      await expectOnScreen(admin, some, '指定部门和人员');
      await some.tap();
      const pick = admin.getByTestId('notice-pick-audience');
      await shot(admin, 'item1', 'phone-notice-form');
      await expectOnScreen(admin, pick, '选择部门和人员', { tap: true });
      await pick.tap();
      const picker = admin.getByRole('dialog', { name: '选择接收公告的部门和人员' });
      await picker.waitFor();
      const sheet = (await picker.boundingBox())!;
      expect(sheet.width).toBeGreaterThanOrEqual(VIEWPORT.width - 2);
      expect(sheet.height).toBeGreaterThanOrEqual(VIEWPORT.height * 0.9);
      // A whole department from the tree, one switch away …
      await picker.getByTestId('org-picker-pane').tap();
      await picker.getByPlaceholder('搜索部门').fill(TEAM);
      const box = picker.getByLabel(`选择部门 ${TEAM}`);
      await expectOnScreen(admin, box, `the box of ${TEAM}`);
      await box.tap();
      await picker.getByTestId('org-picker-selected').getByText(`${TEAM}（部门）`).waitFor();
      // … and a person by a search.
      await picker.getByTestId('org-picker-pane').tap();
      await searchBox(admin, 'org-picker-search').fill(MATE);
      await searchBox(admin, 'org-picker-search').press('Enter');
      await picker.getByTestId('org-picker-people').getByTestId(`person-${MATE}`).getByText(`昵称${MATE}`).tap();
      await picker.getByTestId('org-picker-selected').getByText(`昵称${MATE}`).waitFor();
      await shot(admin, 'item1', 'phone-notice-picker');
      await picker.getByRole('button', { name: /确\s*定/ }).tap();
      await picker.waitFor({ state: 'detached' });
      await expectOnScreen(admin, form.getByText(`${TEAM}（含下级部门）`), 'the picked department in the form');
      await expectOnScreen(admin, form.getByText(`昵称${MATE}`), 'the picked person in the form');
      await expectOnScreen(admin, admin.getByTestId('notice-submit'), '发布', { tap: true });
    } finally {
      await context.close();
    }
  });

  it('keeps the header whole with a long account name: brand, bell and the account menu side by side on the screen', async () => {
    // Setup the test is not about: a name as long as real ones with a post, given straight in the database.
    const long = `昵称${ME}（华东区财务共享服务中心主任）`;
    const setNick = (nick: string) => {
      const db = new SQLite(path.join(inject('dataDir'), 'drive.sqlite'));
      db.pragma('busy_timeout = 5000');
      db.prepare('update users set nick_name = ? where username = ?').run(nick, ME);
      db.close();
    };
    setNick(long);
    try {
      await page.reload();
      const nickname = page.getByTestId('user-nickname');
      await expect.poll(() => nickname.textContent(), { timeout: 15_000 }).toBe(long);
      const parts = { 'the brand': page.getByTestId('brand'), 'the bell': page.getByTestId('notice-bell'), 'the account menu': page.getByTestId('user-menu'), 'the menu button': page.getByTestId('open-menu') };
      const boxes: [string, { x: number; width: number }][] = [];
      for (const [what, part] of Object.entries(parts)) {
        // The brand's inline box is the header's line (taller than the bar): only its sides are checked.
        if (what !== 'the brand') await expectOnScreen(page, part, what);
        const box = (await part.boundingBox())!;
        if (box.x < -0.5 || box.x + box.width > VIEWPORT.width + 0.5) throw new Error(`${what} runs off the screen's side (${Math.round(box.x)}+${Math.round(box.width)})`);
        boxes.push([what, box]);
      }
      // Side by side, none over another (the name and the bell had been drawn over the brand).
      boxes.sort((a, b) => a[1].x - b[1].x);
      for (let i = 1; i < boxes.length; i++) {
        const [prev, a] = boxes[i - 1]!;
        const [next, b] = boxes[i]!;
        if (a.x + a.width > b.x + 0.5) throw new Error(`${prev} (${Math.round(a.x)}+${Math.round(a.width)}) runs into ${next} (${Math.round(b.x)})`);
      }
      // The whole name is one hover or long press away.
      await expect(page.getByTestId('user-menu').getAttribute('title')).resolves.toBe(long);
      expect(await pageOverflowsSideways(page)).toBe(false);
      await shot(page, 'item1', 'phone-long-account-name');
    } finally {
      setNick(`昵称${ME}`);
    }
  });
});
