/**
 * Writes public/screenshots/files-wide.png (1280×800) and files-narrow.png (390×844): 个人文件 with a
 * few folders and files, for the web app manifest (the install dialog shows them). Run by hand
 * against a server started with test hooks (`DRIVE_TEST_HOOKS=1 npm start`), with a CJK font
 * installed (Debian: fonts-wqy-microhei):
 *   node --import tsx tests/tools/make-screenshots.ts http://127.0.0.1:8080 ./data
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { API } from '../../common/api/paths';
import { CHROMIUM_ARGS, findChromium } from '../support/chromium';
import { loggedInJar } from '../support/drive-server';

const [baseUrl = 'http://127.0.0.1:8080', dataDir = './data'] = process.argv.slice(2);
const OUT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../public/screenshots');

const jar = await loggedInJar(baseUrl, dataDir);
const post = (p: string, body: unknown) =>
  jar.fetch(baseUrl + p, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' }, body: JSON.stringify(body) });
for (const name of ['项目资料', '合同归档', '设计稿', '会议纪要']) await post(API.mkdir, { parentId: null, category: 1, name });
for (const [name, content] of [['季度报告.txt', '第三季度经营情况汇总'], ['客户名单.csv', '名称,电话'], ['产品说明.md', '# 产品说明']]) {
  await post(API.createTxt, { parentId: null, category: 1, name, content });
}

const browser = await chromium.launch({ executablePath: findChromium()!, args: CHROMIUM_ARGS });
for (const [file, viewport] of [
  ['files-wide.png', { width: 1280, height: 800 }],
  ['files-narrow.png', { width: 390, height: 844 }],
] as const) {
  const context = await browser.newContext({ viewport, serviceWorkers: 'block', isMobile: viewport.width < 500, hasTouch: viewport.width < 500 });
  await context.addCookies([{ name: jar.cookie().split('=')[0]!, value: jar.cookie().split('=').slice(1).join('='), url: baseUrl }]);
  const page = await context.newPage();
  await page.goto(baseUrl + '/main/file/personal');
  await page.getByTestId('file-table').getByText('项目资料').waitFor();
  await page.screenshot({ path: path.join(OUT, file) });
  await context.close();
}
await browser.close();
console.log('wrote', OUT);
