/**
 * Issue 44 item 5, risky or silent admin actions, in Chromium as the tenant admin: the inline 角色
 * select asks before making someone 管理员 (naming the person and the change; 取消 leaves the select
 * and the account as they were); in 设置负责人 an empty 确定 cannot silently clear the manager (it is
 * disabled with the reason, clearing is its own confirmed 清除负责人); the picker there picks on a
 * click anywhere on the row and marks locked accounts. On a 390-px phone the same: the 角色 select, its
 * confirmation, 设置负责人 and 清除负责人 lie wholly on the screen and take a finger. 通讯录 marks a
 * locked colleague 锁定 for a member, on a desktop and on a phone (the mark never cut off by the row).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { DepartmentNode, OrgTree, UserListResponse } from '../../common/api/org-types';
import { shot } from './shots';
import { addPeople, call, expectOnScreen, expectUncut, PHONE, searchBox, signIn, signInAdmin } from './tenant-kit';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession } from './browser';

const RUN = Date.now().toString(36).slice(-6);
const DEPT = `风控部${RUN}`;
const MATE = `risk.${RUN}`;
const BOSS = `boss.${RUN}`;
const LOCKED = `frozen.${RUN}`;
const PASSWORD = 'Admin#2024c';

const roleOf = async (page: Page, account: string) => (await call<UserListResponse>(page, API.userList, { keyword: account })).items.find((u) => u.website === account)?.role;

async function department(page: Page, id: string): Promise<DepartmentNode> {
  const tree = await page.evaluate(async (url) => ((await (await fetch(url, { credentials: 'include' })).json()) as { data: OrgTree }).data, API.orgTree);
  return tree.departments.find((d) => d.id === id)!;
}

/** Opens the row's 角色 select and picks a role. */
async function chooseRole(page: Page, account: string, role: string): Promise<void> {
  await page.getByTestId(`user-role-${account}`).click();
  await page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${role}"]`).click();
}

describe('issue 44 item 5: admin actions are confirmed, never silent', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;
  let deptId = '';
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('comfort-admin', { viewport: { width: 1440, height: 900 } }));
    await loginAsAdmin(page);
    deptId = (await call<{ id: string }>(page, API.departmentCreate, { parentId: null, name: DEPT })).id;
    Object.assign(ids, await addPeople(page, deptId, [MATE, BOSS, LOCKED], { password: PASSWORD, locked: [LOCKED] }));
    await call(page, API.departmentUpdate, { id: deptId, managerId: ids[BOSS] });
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('asks before the 角色 select makes someone 管理员; 取消 leaves the select and the account as they were', async () => {
    await page.goto(baseUrl() + '/main/system/user/list');
    await searchBox(page, 'user-search').fill(MATE);
    await searchBox(page, 'user-search').press('Enter');
    const select = page.getByTestId(`user-role-${MATE}`);
    await select.waitFor();
    await chooseRole(page, MATE, '管理员');
    const confirm = page.locator('.ant-modal-confirm');
    const asked = await confirm.waitFor({ timeout: 3000 }).then(
      () => true,
      () => false,
    );
    await shot(page, 'item5', 'role-change');
    expect(asked).toBe(true); // before: the account became 管理员 at once
    const text = await confirm.textContent();
    expect(text).toContain(`昵称${MATE}`);
    expect(text).toContain(MATE);
    expect(text).toContain('管理员');
    expect(text).toContain('普通用户');
    await confirm.getByRole('button', { name: /取\s*消/ }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(select.textContent()).resolves.toContain('普通用户');
    expect(await roleOf(page, MATE)).toBe('member');

    await chooseRole(page, MATE, '管理员');
    await confirm.getByRole('button', { name: '确认修改' }).click();
    await page.getByText(`已将 昵称${MATE} 的角色改为管理员`).waitFor();
    await expect.poll(() => select.textContent()).toContain('管理员');
    expect(await roleOf(page, MATE)).toBe('admin');
    await call(page, API.setRoles, { userId: ids[MATE], roles: ['member'] });
  });

  it('设置负责人: 确定 stays disabled with the reason until someone is picked; a row click picks; locked people are marked', async () => {
    await page.goto(baseUrl() + '/main/system/department');
    await page.getByTestId('department-tree').getByTestId(`dept-${DEPT}`).click();
    await page.getByText(`昵称${BOSS}`).first().waitFor();
    await page.getByTestId('dept-manager').click();
    const picker = page.getByRole('dialog').filter({ has: page.getByTestId('org-picker-selected') });
    await picker.waitFor();
    const ok = picker.getByRole('button', { name: /确\s*定/ });
    await shot(page, 'item5', 'manager-picker-empty');
    // Before: 确定 with nothing picked cleared the manager without a word.
    expect(await ok.isDisabled()).toBe(true);
    await expect(picker.getByTestId('org-picker-required').textContent()).resolves.toContain('清除负责人');
    expect(await picker.textContent()).toContain(`昵称${BOSS}`); // the title names the current manager
    await picker.getByRole('button', { name: /取\s*消/ }).click();
    expect((await department(page, deptId)).managerId).toBe(ids[BOSS]);

    await page.getByTestId('dept-manager').click();
    await picker.waitFor();
    await searchBox(page, 'org-picker-search').fill(RUN);
    await searchBox(page, 'org-picker-search').press('Enter');
    const list = picker.getByTestId('org-picker-people');
    await list.getByTestId(`person-${MATE}`).waitFor();
    await expect(list.getByTestId(`person-${LOCKED}`).textContent()).resolves.toContain('锁定');
    await list.getByTestId(`person-${MATE}`).getByText(`昵称${MATE}`).click();
    await picker.getByTestId('org-picker-selected').getByText(`昵称${MATE}`).waitFor();
    expect(await ok.isDisabled()).toBe(false);
    await ok.click();
    await page.getByText(`负责人已设为 昵称${MATE}`).waitFor();
    expect((await department(page, deptId)).managerId).toBe(ids[MATE]);
  });

  it('clears the manager only through 清除负责人, confirmed with the department and the person named', async () => {
    await page.getByTestId('dept-manager-clear').click();
    const pop = page.locator('.ant-popover:not(.ant-popover-hidden)').filter({ hasText: '清除' });
    await pop.waitFor();
    await shot(page, 'item5', 'manager-clear');
    const text = await pop.textContent();
    expect(text).toContain(DEPT);
    expect(text).toContain(`昵称${MATE}`);
    await pop.getByRole('button', { name: /清\s*除/ }).click();
    await page.getByText('已清除负责人').waitFor();
    expect((await department(page, deptId)).managerId).toBeNull();
    await page.getByTestId('dept-manager-clear').waitFor({ state: 'detached' });
  });

  it('on a 390-px phone: the role change asks on the screen; 设置负责人 picks on a tapped row; 清除负责人 asks on the screen', async () => {
    const { context, page: phone } = await signInAdmin(browser, PHONE);
    try {
      await phone.goto(baseUrl() + '/main/system/user/list');
      await searchBox(phone, 'user-search').fill(MATE);
      await searchBox(phone, 'user-search').press('Enter');
      const select = phone.getByTestId(`user-role-${MATE}`);
      await shot(phone, 'item5', 'phone-user-list');
      await expectOnScreen(phone, select, 'the 角色 select', { tap: true });
      await select.tap();
      await phone.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="管理员"]').tap();
      const confirm = phone.locator('.ant-modal-confirm');
      await confirm.waitFor({ timeout: 3000 });
      await shot(phone, 'item5', 'phone-role-change');
      await expectOnScreen(phone, confirm.locator('.ant-modal-container'), 'the role-change confirmation');
      const text = await confirm.textContent();
      expect(text).toContain(`昵称${MATE}`);
      expect(text).toContain('管理员');
      expect(text).toContain('普通用户');
      const cancel = confirm.getByRole('button', { name: /取\s*消/ });
      const sure = confirm.getByRole('button', { name: '确认修改' });
      await expectOnScreen(phone, cancel, '取消', { tap: true });
      await expectOnScreen(phone, sure, '确认修改', { tap: true });
      await cancel.tap();
      await confirm.waitFor({ state: 'detached' });
      await expect(select.textContent()).resolves.toContain('普通用户');
      expect(await roleOf(phone, MATE)).toBe('member');

      await phone.goto(baseUrl() + '/main/system/department');
      // The phone's tree is a third of the screen and the shared tenant's tree holds the departments of
      // every file before: an admin finds a department by its name there, as here.
      await searchBox(phone, 'dept-search').fill(DEPT);
      const item = phone.getByTestId('department-tree').getByTestId(`dept-${DEPT}`);
      await expectOnScreen(phone, item, `${DEPT} in the tree`);
      await item.tap();
      const pick = phone.getByTestId('dept-manager');
      await shot(phone, 'item5', 'phone-department');
      await expectOnScreen(phone, pick, '设置负责人', { tap: true });
      await pick.tap();
      const picker = phone.getByRole('dialog').filter({ has: phone.getByTestId('org-picker-selected') });
      await picker.waitFor();
      const ok = picker.getByRole('button', { name: /确\s*定/ });
      expect(await ok.isDisabled()).toBe(true);
      await expectOnScreen(phone, phone.getByTestId('org-picker-required'), 'the reason 确定 is off');
      await searchBox(phone, 'org-picker-search').fill(RUN);
      await searchBox(phone, 'org-picker-search').press('Enter');
      const row = picker.getByTestId('org-picker-people').getByTestId(`person-${BOSS}`);
      await expectOnScreen(phone, row, 'a person in the picker', { tap: true });
      await row.getByText(`昵称${BOSS}`).tap();
      await picker.getByTestId('org-picker-selected').getByText(`昵称${BOSS}`).waitFor();
      await shot(phone, 'item5', 'phone-manager-picker');
      await expectOnScreen(phone, ok, '确定', { tap: true });
      await ok.tap();
      await phone.getByText(`负责人已设为 昵称${BOSS}`).waitFor();
      expect((await department(phone, deptId)).managerId).toBe(ids[BOSS]);

      const clear = phone.getByTestId('dept-manager-clear');
      await expectOnScreen(phone, clear, '清除负责人', { tap: true });
      await clear.tap();
      const pop = phone.locator('.ant-popover:not(.ant-popover-hidden)').filter({ hasText: '清除' });
      await pop.waitFor();
      await shot(phone, 'item5', 'phone-manager-clear');
      await expectOnScreen(phone, pop.locator('.ant-popover-container'), 'the 清除负责人 confirmation');
      expect(await pop.textContent()).toContain(`昵称${BOSS}`);
      await pop.getByRole('button', { name: /清\s*除/ }).tap();
      await phone.getByText('已清除负责人').waitFor();
      expect((await department(phone, deptId)).managerId).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('通讯录 marks a locked colleague 锁定 for a member, on a desktop and on a 390-px phone', async () => {
    for (const options of [{ viewport: { width: 1440, height: 900 } }, PHONE]) {
      const { context, page: member } = await signIn(browser, MATE, PASSWORD, options);
      try {
        await member.goto(baseUrl() + '/main/addressList');
        await searchBox(member, 'address-search').fill(RUN);
        await searchBox(member, 'address-search').press('Enter');
        const list = member.getByTestId('address-people');
        await list.getByTestId(`person-${BOSS}`).waitFor();
        await shot(member, 'item5', `address-list-${options === PHONE ? 'phone' : 'desktop'}`);
        const mark = list.getByTestId(`person-${LOCKED}`).getByTestId('person-locked');
        await mark.waitFor({ timeout: 5000 }).catch(() => undefined);
        await expectUncut(member, mark, `锁定 beside ${LOCKED} in 通讯录`);
        expect(await list.getByTestId(`person-${BOSS}`).getByTestId('person-locked').count()).toBe(0);
      } finally {
        await context.close();
      }
    }
  });
});
