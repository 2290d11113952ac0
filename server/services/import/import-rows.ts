import type { ImportRow } from '../../../common/api/org-types';
import type { RoleCode } from '../../../common/api/types';
import { accountKey, accountProblem, nicknameProblem, normalizeDepartmentName, phoneProblem } from '../../../common/org/account';
import { defaultQuotaOf, parseQuotaLabel, type QuotaChoice } from '../../../common/org/quota';
import type { DepartmentsTable } from '../../db/schema';
import type { CheckedProfile } from '../account-profile';
import type { SheetRow } from './sheet-io';

/** What the tenant already holds, looked up for the rows of one file. */
export interface ImportContext {
  /** Department paths (`研发部/前端组`, NFC lower case) → id; '' and '未分配' → the 未分配 id. */
  departments: Map<string, string>;
  takenAccounts: Set<string>;
  takenPhones: Set<string>;
  /** The tenant's `quota` static-data list (the 配额 column's choices). */
  quotaChoices: readonly QuotaChoice[];
}

const ROLE_WORDS: Record<string, RoleCode> = { '': 'member', 管理员: 'admin', admin: 'admin', 普通用户: 'member', 成员: 'member', member: 'member' };
const YES = new Set(['是', 'y', 'yes', 'true', '1', '开通', '允许']);
const NO = new Set(['', '否', 'n', 'no', 'false', '0', '关闭', '不允许']);

export const pathKey = (path: string): string =>
  path
    .split('/')
    .map((p) => normalizeDepartmentName(p).toLowerCase())
    .filter(Boolean)
    .join('/');

/** Every department's path of names, for matching the 部门 column. */
export function departmentPaths(rows: DepartmentsTable[]): Map<string, string> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = new Map<string, string>();
  for (const row of rows) {
    const names: string[] = [];
    let at: DepartmentsTable | undefined = row;
    for (let guard = 0; at && guard < 100; guard++) {
      names.unshift(at.name_key);
      at = at.parent_id ? byId.get(at.parent_id) : undefined;
    }
    paths.set(names.join('/'), row.id);
    if (row.kind === 'unassigned') paths.set('', row.id);
  }
  return paths;
}

/**
 * The verdict of every row (rules: ImportRow in org-types.ts): each reason a row is refused, in the
 * order of its columns, including duplicates within the file (the later rows name the first one).
 */
export function judgeRows(rows: SheetRow[], ctx: ImportContext): { judged: ImportRow[]; accounts: Map<number, CheckedProfile> } {
  const firstAccount = new Map<string, number>();
  const firstPhone = new Map<string, number>();
  // The good rows, ready to insert.
  const accounts = new Map<number, CheckedProfile>();
  const judged = rows.map(({ row, cells }): ImportRow => {
    const reasons: string[] = [];
    const website = cells['账号'];
    const key = accountKey(website);
    const accountBroken = accountProblem(website);
    if (accountBroken) reasons.push(accountBroken);
    else if (firstAccount.has(key)) reasons.push(`账号在文件中重复（与第${firstAccount.get(key)}行相同）`);
    else if (ctx.takenAccounts.has(key)) reasons.push('账号已存在');
    if (!accountBroken && !firstAccount.has(key)) firstAccount.set(key, row);

    const nickBroken = nicknameProblem(cells['昵称']);
    if (nickBroken) reasons.push(nickBroken);

    const phone = cells['手机号'].replace(/[\s-]/g, '');
    const phoneBroken = phoneProblem(phone);
    if (phoneBroken) reasons.push(phoneBroken);
    else if (phone && firstPhone.has(phone)) reasons.push(`手机号在文件中重复（与第${firstPhone.get(phone)}行相同）`);
    else if (phone && ctx.takenPhones.has(phone)) reasons.push('手机号已被其他账号使用');
    if (phone && !phoneBroken && !firstPhone.has(phone)) firstPhone.set(phone, row);

    const departmentId = ctx.departments.get(pathKey(cells['部门']));
    if (!departmentId) reasons.push(`部门不存在：${cells['部门']}`);

    const role = ROLE_WORDS[cells['角色'].toLowerCase()];
    if (!role) reasons.push('角色只能是“管理员”或“普通用户”');

    const quota = cells['配额'] ? parseQuotaLabel(cells['配额'], ctx.quotaChoices) : defaultQuotaOf(ctx.quotaChoices).bytes;
    if (quota === null) reasons.push(`配额不在可选范围内（可选：${ctx.quotaChoices.map((q) => q.label).join('、')}）`);

    const outer = cells['外网登录'].toLowerCase();
    if (!YES.has(outer) && !NO.has(outer)) reasons.push('外网登录只能填“是”或“否”');

    if (reasons.length === 0) {
      accounts.set(row, { website: website.trim(), key, nickName: cells['昵称'].trim(), phone, departmentId: departmentId!, role: role!, quota: quota!, outerLogin: YES.has(outer) });
    }
    return {
      row,
      website,
      nickName: cells['昵称'],
      phone: cells['手机号'],
      department: cells['部门'],
      role: cells['角色'],
      quota: cells['配额'],
      outerLogin: cells['外网登录'],
      ok: reasons.length === 0,
      reasons,
    };
  });
  return { judged, accounts };
}
