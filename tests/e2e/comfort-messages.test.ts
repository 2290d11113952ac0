/**
 * Issue 44 item 4 "Messages are dead ends", walked in Chromium with two people: 张三 shares
 * 「合同草案v2」 with a colleague, adds them to a group and sends a link whose file is downloaded.
 * The colleague's message about the share opens 共享文件 with the file selected; the one about the
 * group (naming it and who added them) opens the group space; the sharer's message about the
 * download opens 我的分享 at the link. On a 390-px phone the share message opens the file too.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { LinkInfo, LinkOpenResponse } from '../../common/api/sharing';
import type { CreateTxtResponse, SpaceInfo } from '../../common/api/types';
import { baseUrl, fileRow, launchBrowser } from './browser';
import { shot } from './shots';
import { addDepartment, addPeople, call, PHONE, signIn, signInAdmin } from './tenant-kit';

const RUN = Date.now().toString(36).slice(-6);
const PASSWORD = 'Notes@2024x';
const SHARER = `zhang.${RUN}`;
const RECEIVER = `li.${RUN}`;
const TEAM = `消息部${RUN}`;
const FILE = `合同草案v2-${RUN}.txt`;
const GROUP = `发布组${RUN}`;
const pageErrors: string[] = [];

/** The message whose sentence is `text`, on the messages page. */
async function openMessages(page: Page): Promise<void> {
  await page.goto(baseUrl() + '/main/notice/fileNotice');
  await page.getByTestId('file-message').first().waitFor();
}
const message = (page: Page, text: string) => page.getByTestId('file-message').filter({ has: page.locator('.nt-title', { hasText: text }) });

describe('messages open what they talk about (issue 44 item 4)', () => {
  let browser: Browser;
  let sharer: Page;
  let receiver: Page;
  let fileId: string;
  let group: SpaceInfo;
  let link: LinkInfo;

  beforeAll(async () => {
    browser = await launchBrowser();
    const admin = (await signInAdmin(browser)).page;
    const team = await addDepartment(admin, TEAM);
    const nick = (account: string) => (account === SHARER ? `张三${RUN}` : `李四${RUN}`);
    const li = { id: (await addPeople(admin, team, [SHARER, RECEIVER], { password: PASSWORD, nick }))[RECEIVER]! };
    await admin.context().close();

    sharer = (await signIn(browser, SHARER, PASSWORD, {}, pageErrors)).page;
    const made = await call<CreateTxtResponse>(sharer, API.createTxt, { parentId: null, category: 1, name: FILE, content: '合同正文' });
    if (made.status !== 'created') throw new Error('not created');
    fileId = made.file.id;
    await call(sharer, API.shareCreate, { fileIds: [fileId], recipients: [{ type: 'user', id: li.id }], permission: 'download', validityDays: 0 });
    group = await call<SpaceInfo>(sharer, API.groupCreate, { name: GROUP });
    await call(sharer, API.groupMemberAdd, { id: group.id, username: RECEIVER });
    link = await call<LinkInfo>(sharer, API.linkCreate, { fileId, code: '', validityDays: 0, downloadLimit: null, previewOnly: false });
    // An outsider downloads through the link.
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${baseUrl()}/shareLink/${link.token}`);
    const opened = await call<LinkOpenResponse>(visitor, API.linkOpen, { token: link.token, ...(link.code ? { code: link.code } : {}) });
    if (opened.needCode) throw new Error('code refused');
    await call(visitor, API.linkDownload, { visit: opened.visit, ids: [fileId] });
    await visitor.context().close();

    receiver = (await signIn(browser, RECEIVER, PASSWORD, {}, pageErrors)).page;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('“张三 向你分享了「合同草案v2」” opens 共享文件 with the file selected', async () => {
    await openMessages(receiver);
    const m = message(receiver, `张三${RUN} 向你分享了 「${FILE}」`);
    await m.waitFor();
    await shot(receiver, '4', 'receiver-messages');
    await m.click();
    await receiver.waitForURL(`**/main/file/share?select=${fileId}`, { timeout: 5000 }).catch(() => undefined);
    await receiver.locator(`[data-testid="file-row"][data-row-key="${fileId}"][aria-selected="true"]`).waitFor({ timeout: 10_000 }).catch(() => undefined);
    await shot(receiver, '4', 'receiver-share-opened');
    expect(new URL(receiver.url()).pathname).toBe('/main/file/share');
    expect(await fileRow(receiver, FILE).getAttribute('aria-selected')).toBe('true');
  });

  it('being added to a group is a message naming the group and who added you; it opens the group space', async () => {
    await openMessages(receiver);
    const m = message(receiver, `张三${RUN} 把你加入了群组「${GROUP}」`);
    await m.waitFor({ timeout: 5000 });
    await m.click();
    await receiver.waitForURL(`**/main/group?space=${group.id}`);
    await receiver.getByTestId('group-members').waitFor();
    // The group one was just added to, not 群组不存在 from the list cached before.
    expect(await receiver.getByTestId('group-missing').count()).toBe(0);
    await shot(receiver, '4', 'receiver-group-opened');
  });

  it('the sharer’s message about the link’s download opens 我的分享 at the link', async () => {
    await openMessages(sharer);
    const m = message(sharer, `你分享的 「${FILE}」 的链接被下载了 1 次`);
    await m.waitFor();
    await m.click();
    await sharer.waitForURL(`**/main/safe/myShare?link=${link.id}`, { timeout: 5000 }).catch(() => undefined);
    await sharer.locator(`[data-testid="my-links-table"] [data-row-key="${link.id}"]`).waitFor({ timeout: 5000 }).catch(() => undefined);
    await shot(sharer, '4', 'sharer-link-opened');
    expect(new URL(sharer.url()).pathname).toBe('/main/safe/myShare');
    await sharer.locator(`[data-testid="my-links-table"] [data-row-key="${link.id}"][data-focused="true"]`).waitFor();
  });

  it('on a 390-px phone the share message opens the file too', async () => {
    const { context, page } = await signIn(browser, RECEIVER, PASSWORD, PHONE, pageErrors);
    await openMessages(page);
    const m = message(page, `张三${RUN} 向你分享了 「${FILE}」`);
    await m.tap();
    await page.waitForURL(`**/main/file/share?select=${fileId}`, { timeout: 5000 }).catch(() => undefined);
    await page.locator(`[data-testid="file-row"][data-row-key="${fileId}"][aria-selected="true"]`).waitFor({ timeout: 10_000 }).catch(() => undefined);
    await shot(page, '4', 'phone-share-opened');
    expect(await page.locator(`[data-testid="file-row"][data-row-key="${fileId}"]`).getAttribute('aria-selected')).toBe('true');
    await context.close();
  });

  it('“上传被拦截” opens the folder the upload was for with the transfer list open, on a desktop and on a 390-px phone', async () => {
    const folder = await call<{ id: string }>(sharer, API.mkdir, { parentId: null, category: 1, name: `方案${RUN}` });
    const held = `绝密预算-${RUN}.docx`;
    await call(sharer, API.multipleFileCheck, { items: [{ key: `held-${RUN}`, name: held, size: 10, parentId: folder.id, category: 1 }] });
    for (const options of [{}, PHONE]) {
      const { context, page } = options === PHONE ? await signIn(browser, SHARER, PASSWORD, PHONE, pageErrors) : { context: null, page: sharer };
      await openMessages(page);
      const m = message(page, `你上传的 「${held}」 含有敏感词`);
      await m.waitFor();
      await shot(page, 'B1', `${options === PHONE ? 'phone' : 'desktop'}-held-message`);
      await (options === PHONE ? m.tap() : m.click());
      await page.waitForURL(`**/main/file/personal?dir=${folder.id}`);
      if (options === PHONE) await page.getByTestId('transfer-sheet').waitFor();
      else await page.locator('[data-testid="transfer-panel"][data-expanded="true"]').waitFor();
      // The ask is taken out of the address (a reload does not open the list again).
      expect(new URL(page.url()).searchParams.get('transfers')).toBeNull();
      await shot(page, 'B1', `${options === PHONE ? 'phone' : 'desktop'}-held-opened`);
      await context?.close();
    }
  });

  it('threw no page error on the way', () => {
    expect(pageErrors).toEqual([]);
  });
});
