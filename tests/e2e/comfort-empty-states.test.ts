/**
 * Issue 44 item 8, empty and unexplained places: 同步文件 and 交换区, empty, say what they are for and
 * how to fill them, both pointing at how to get the desktop client; the user menu says how to get
 * the desktop client; 群组空间 and 公共空间 show whose file each row is, in the list and on the tile. On a
 * 390-px phone the same explanations and the client's help lie on the screen, and the rows say whose.
 */
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse, SpaceInfo } from '../../common/api/types';
import { loggedInJar } from '../support/drive-server';
import { baseUrl, closeBrowserSession, openBrowserSession, revealFileRow, submitLogin } from './browser';
import { shot } from './shots';
import { addMember, expectOnScreen, PHONE, signIn } from './tenant-kit';

const HEADERS = { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' };

describe('empty states that explain, the desktop client, and whose file a space row is', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;
  const stamp = Date.now();
  const user = `emptyst${stamp}`;
  const groupFile = `群组资料-${stamp}.txt`;
  const publicFile = `公共资料-${stamp}.txt`;
  let group: SpaceInfo;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('empty-states'));
    await addMember(user, 'Empty@2024');
    // The admin makes a group with the member in it and puts a file there and one in the public space.
    const admin = await loggedInJar(baseUrl(), inject('dataDir'));
    const post = async <T,>(apiPath: string, body: unknown): Promise<T> => {
      const res = await admin.fetch(baseUrl() + apiPath, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
      const json = (await res.json()) as { data: T };
      if (res.status !== 200) throw new Error(`${apiPath}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    group = await post<SpaceInfo>(API.groupCreate, { name: `空状态组${stamp}` });
    await post(API.groupMemberAdd, { id: group.id, username: user });
    expect((await post<CreateTxtResponse>(API.createTxt, { parentId: null, category: 1, spaceId: group.id, name: groupFile, content: 'g' })).status).toBe('created');
    const publicSpace = await post<SpaceInfo>(API.publicSpace, {});
    expect((await post<CreateTxtResponse>(API.createTxt, { parentId: null, category: 1, spaceId: publicSpace.id, name: publicFile, content: 'p' })).status).toBe('created');
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('同步文件, empty, says what it is for and links to how to get the desktop client', async () => {
    await submitLogin(page, user, 'Empty@2024');
    await page.waitForURL('**/main/file/personal**');
    await page.goto(`${baseUrl()}/main/file/backups`);
    await page.getByTestId('file-table').waitFor();
    await page.waitForTimeout(800);
    await shot(page, 'item8', 'backups');
    const empty = page.getByTestId('empty-state');
    await empty.waitFor({ timeout: 5000 });
    await expect(empty.textContent()).resolves.toContain('桌面客户端');
    await empty.getByTestId('desktop-client-link').click();
    const help = page.getByTestId('desktop-client-help');
    await help.waitFor();
    await expect(help.textContent()).resolves.toContain('管理员');
    await shot(page, 'item8', 'desktop-client-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
  });

  it('交换区, empty, says what it is for and how to put files there', async () => {
    await page.goto(`${baseUrl()}/main/file/other`);
    await page.getByTestId('file-table').waitFor();
    await page.waitForTimeout(800);
    await shot(page, 'item8', 'exchange');
    const empty = page.getByTestId('empty-state');
    await empty.waitFor({ timeout: 5000 });
    const text = (await empty.textContent()) ?? '';
    expect(text).toContain('交换检查');
    expect(text).toContain('上传');
    // The other network's drive (the web app or the desktop client) takes what passed: how to get the client.
    await empty.getByTestId('desktop-client-link').click();
    await page.getByTestId('desktop-client-help').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('desktop-client-help').waitFor({ state: 'hidden' });
  });

  it('the user menu says how to get the desktop client', async () => {
    await page.getByTestId('user-menu').click();
    await page.locator('.ant-dropdown:visible').getByText('获取桌面客户端').click();
    await page.getByTestId('desktop-client-help').waitFor();
    await page.keyboard.press('Escape');
  });

  it('群组空间 and 公共空间 show who uploaded each row, in the list and on the tile', async () => {
    await page.goto(`${baseUrl()}/main/group?space=${encodeURIComponent(group.id)}`);
    const row = await revealFileRow(page, groupFile);
    await shot(page, 'item8', 'group-space');
    await page.getByRole('columnheader', { name: '上传者' }).waitFor({ timeout: 5000 });
    await expect(row.getByTestId('file-owner').textContent()).resolves.toBe('管理员');

    await page.goto(`${baseUrl()}/main/file/publicSpace`);
    const publicRow = await revealFileRow(page, publicFile);
    await expect(publicRow.getByTestId('file-owner').textContent()).resolves.toBe('管理员');

    await page.getByTestId('view-grid').click();
    const tile = page.locator('[data-testid="file-tile"]', { has: page.getByText(publicFile, { exact: true }) });
    await tile.first().waitFor({ timeout: 15_000 }).catch(() => undefined);
    await shot(page, 'item8', 'public-space-grid');
    await expect(tile.getByTestId('file-owner').textContent()).resolves.toContain('管理员');
    await page.getByTestId('view-list').click();
  });

  it('on a 390-px phone: the empty places explain on the screen, the client’s help fits, space rows say whose', async () => {
    const { context, page: phone } = await signIn(browser, user, 'Empty@2024', PHONE);
    try {
      // A cold phone page: its list first (as on the desktop above), then what the empty list says.
      await phone.goto(`${baseUrl()}/main/file/backups`);
      await phone.getByTestId('file-table').waitFor();
      const empty = phone.getByTestId('empty-state');
      await empty.waitFor({ timeout: 5000 });
      await shot(phone, 'item8', 'phone-backups');
      await expectOnScreen(phone, empty, 'the 同步文件 explanation');
      await expect(empty.textContent()).resolves.toContain('桌面客户端');
      const link = empty.getByTestId('desktop-client-link');
      await expectOnScreen(phone, link, 'the desktop client link', { tap: true });
      await link.tap();
      const help = phone.getByTestId('desktop-client-help');
      await help.waitFor();
      await phone.waitForTimeout(300);
      await shot(phone, 'item8', 'phone-desktop-client-help');
      await expectOnScreen(phone, phone.locator('.ant-modal-container', { has: help }), 'the desktop client help');
      await expect(help.textContent()).resolves.toContain('管理员');
      await phone.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });

      await phone.goto(`${baseUrl()}/main/file/other`);
      await phone.getByTestId('file-table').waitFor();
      await empty.waitFor({ timeout: 5000 });
      await shot(phone, 'item8', 'phone-exchange');
      await expectOnScreen(phone, empty, 'the 交换区 explanation');
      const text = (await empty.textContent()) ?? '';
      expect(text).toContain('交换检查');
      expect(text).toContain('上传');
      await expectOnScreen(phone, empty.getByTestId('desktop-client-link'), 'the 交换区 desktop client link', { tap: true });

      const userMenu = phone.getByTestId('user-menu');
      await expectOnScreen(phone, userMenu, 'the user menu', { tap: true });
      await userMenu.tap();
      const entry = phone.locator('.ant-dropdown:visible').getByText('获取桌面客户端');
      await expectOnScreen(phone, entry, '获取桌面客户端');
      await entry.tap();
      await help.waitFor();
      await phone.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });

      // The phone's one-column rows carry who uploaded it on their second line.
      await phone.goto(`${baseUrl()}/main/group?space=${encodeURIComponent(group.id)}`);
      const row = await revealFileRow(phone, groupFile);
      await shot(phone, 'item8', 'phone-group-space');
      await expect(row.getByTestId('file-owner').textContent()).resolves.toBe('管理员');
      await expectOnScreen(phone, row.getByTestId('file-owner'), 'the uploader on the row');
      await phone.goto(`${baseUrl()}/main/file/publicSpace`);
      const publicRow = await revealFileRow(phone, publicFile);
      await expect(publicRow.getByTestId('file-owner').textContent()).resolves.toBe('管理员');
    } finally {
      await context.close();
    }
  });
});
