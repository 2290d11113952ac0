/**
 * 客户端版本 in a real browser against `npm start` (issue 38): the admin sets the public build's
 * release (type 4) in 系统配置 with a Windows installer (.exe with PE content: a type the tenant blocks by
 * default, let through by the upload's installer purpose) uploaded through the transfer engine; the version
 * check answers it for type 4 and not for type 3; the action log shows the change in words (and the
 * upload's row, that it was an installer let past the type checks); 获取桌面客户端
 * offers that installer to this (internal) build only once type 3 has one too, and a member downloads it
 * from the empty 同步文件 and 交换区 (issue 44 item 8).
 */
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { ClientVersion } from '../../common/api/types';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession, type BrowserSession } from './browser';
import { shot } from './shots';
import { addMember, DESKTOP, expectOnScreen, PHONE, signIn } from './tenant-kit';

/** A Windows program by its first bytes (MZ, PE signature at e_lfanew), as the server recognises one. */
function peInstaller(size: number): Buffer {
  const bytes = Buffer.alloc(size, 7);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
}

const versionOf = async (clientType: 3 | 4): Promise<ClientVersion> => ((await (await fetch(`${baseUrl()}${API.clientVersion}?clientType=${clientType}`)).json()) as { data: ClientVersion }).data;

describe('客户端版本', () => {
  let s: BrowserSession;

  beforeAll(async () => {
    s = await openBrowserSession('client-releases', { viewport: { width: 1440, height: 1000 } });
    await loginAsAdmin(s.page);
  });
  afterAll(async () => {
    await closeBrowserSession(s.browser, s.workDir);
  });

  it('an admin sets type 4 with an installer uploaded through the engine; clientVersion/get answers it for 4 only; the action log says so', async () => {
    const page = s.page;
    const type3Before = await versionOf(3);
    await page.goto(`${baseUrl()}/main/system/systemConfig`);
    const card = page.getByTestId('release-4');
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();

    // A bad version is said in Chinese before anything is sent.
    await page.getByTestId('release-4-version').fill('v2');
    await page.getByTestId('release-4-desc').click();
    await card.getByText('版本号由数字和点组成，如 2.1.0').waitFor();

    const installer = path.join(s.workDir, 'DriveSetup-2.5.0.exe');
    const exe = peInstaller(256 * 1024);
    writeFileSync(installer, exe);
    await page.getByTestId('release-4-installer-file').setInputFiles(installer);
    // Done (the file's name and size) or failed (before the installer purpose: a blocked type).
    const uploaded = card.getByTestId('release-4-installer').getByText('DriveSetup-2.5.0.exe（256.00 KB）');
    await uploaded.or(card.locator('[data-testid="release-4-upload"][data-state="failed"]')).first().waitFor({ timeout: 20_000 });
    await shot(page, 'releases', 'exe-installer');
    await uploaded.waitFor({ timeout: 5_000 });
    await page.getByTestId('release-4-version').fill('2.5.0');
    await page.getByTestId('release-4-desc').fill('修复同步冲突；支持断点续传');
    await page.getByTestId('release-4-force').click();
    await shot(page, 'releases', 'form-filled');
    const saved = page.waitForResponse((r) => r.url().includes(API.clientReleaseSave) && r.status() === 200);
    await page.getByTestId('release-4-save').click();
    await saved;
    await page.getByTestId('release-4-current').getByText('强制更新').waitFor();
    await shot(page, 'releases', 'saved');

    const v4 = await versionOf(4);
    expect(v4).toMatchObject({ versionName: '2.5.0', versionDesc: '修复同步冲突；支持断点续传', isForce: true, installer: { name: 'DriveSetup-2.5.0.exe', size: 256 * 1024 } });
    const bytes = Buffer.from(await (await fetch(new URL(v4.installer!.url, baseUrl()))).arrayBuffer());
    expect(bytes.equals(exe)).toBe(true);
    expect(await versionOf(3)).toEqual(type3Before);

    await page.goto(`${baseUrl()}/main/system/actionLog`);
    const row = page.getByTestId('action-log-row').filter({ hasText: '修改客户端版本' }).first();
    await row.getByText('外网客户端、DriveSetup-2.5.0.exe').waitFor({ timeout: 15_000 });
    await row.click();
    const detail = page.getByTestId('action-log-detail-rows');
    await detail.locator('[data-key="clientType"]').getByText('外网客户端（4）').waitFor();
    expect(await detail.locator('[data-key="to"] dd').textContent()).toContain('版本名称：2.5.0；版本说明：修复同步冲突；支持断点续传；强制更新：是');
    await shot(page, 'releases', 'action-log');
    // The upload's own row says it was an installer, let past the type checks.
    await page.keyboard.press('Escape');
    await page.getByTestId('action-log-row').filter({ hasText: '上传文件' }).filter({ hasText: 'DriveSetup-2.5.0.exe' }).first().click();
    await detail.locator('[data-key="purpose"]').getByText('客户端安装包（系统配置 → 客户端版本）').waitFor();
    await detail.locator('[data-key="typeChecks"]').getByText('已豁免（可设置客户端版本的管理员上传安装包）').waitFor();
    await shot(page, 'releases', 'upload-log-row');
  });

  it('获取桌面客户端 offers this (internal) build the installer of type 3 once the admin sets one, not type 4\'s', async () => {
    const page = s.page;
    const openHelp = async () => {
      await page.goto(`${baseUrl()}/main/file/personal`);
      await page.getByTestId('user-menu').hover();
      await page.getByTestId('menu-desktop-client').click();
      await page.getByTestId('desktop-client-help').waitFor();
    };
    await openHelp();
    await page.getByText('由系统管理员统一发放').waitFor();
    expect(await page.getByTestId('desktop-client-download').count()).toBe(0);

    await page.goto(`${baseUrl()}/main/system/systemConfig`);
    const installer = path.join(s.workDir, 'drive-setup-3.0.0.dmg');
    writeFileSync(installer, Buffer.alloc(64 * 1024, 3));
    await page.getByTestId('release-3-installer-file').setInputFiles(installer);
    await page.getByTestId('release-3-installer').getByText('drive-setup-3.0.0.dmg（64.00 KB）').waitFor({ timeout: 20_000 });
    await page.getByTestId('release-3-version').fill('3.0.0');
    await page.getByTestId('release-3-desc').fill('内网版：同步更快');
    await page.getByTestId('release-3-save').click();
    await page.getByTestId('release-3-current').getByText('3.0.0', { exact: true }).waitFor();

    await openHelp();
    const download = page.getByTestId('desktop-client-download');
    await download.getByText('下载桌面客户端 3.0.0').waitFor();
    expect(await download.getAttribute('href')).toBe((await versionOf(3)).installer!.url);
    await page.getByText('内网版：同步更快').waitFor();
    await shot(page, 'releases', 'desktop-client-help');
  });

  // A member of their own per device (one sign-in each), from the empty place the device shows.
  for (const [where, device, options] of [['backups', 'desktop', DESKTOP], ['other', '390-px phone', PHONE]] as const) {
    it(`a member on a ${device} downloads the installer the admin set from the empty ${where === 'backups' ? '同步文件' : '交换区'} (issue 44 item 8)`, async () => {
      const member = `relmember${where}${Date.now()}`;
      await addMember(member, 'Release@2024');
      const expected = (await versionOf(3)).installer!;
      const { context, page } = await signIn(s.browser, member, 'Release@2024', options);
      try {
        await page.goto(`${baseUrl()}/main/file/${where}`);
        const link = page.getByTestId('empty-state').getByTestId('desktop-client-link');
        await link.waitFor();
        await expectOnScreen(page, link, `获取桌面客户端 in the empty ${where}`, { tap: options === PHONE });
        await link.click();
        const download = page.getByTestId('desktop-client-download');
        await download.getByText('下载桌面客户端 3.0.0').waitFor();
        await expectOnScreen(page, download, '下载桌面客户端');
        await shot(page, 'item8', `member-${where}-client-download`);
        const saved = page.waitForEvent('download');
        await download.click();
        const file = await saved;
        expect(file.suggestedFilename()).toBe(expected.name);
        expect(statSync((await file.path())!).size).toBe(expected.size);
      } finally {
        await context.close();
      }
    });
  }
});
