import { describe, expect, it } from 'vitest';
import type { DepartmentNode } from '../../../common/api/org-types';
import { accountKey, accountProblem, departmentNameProblem, nicknameProblem, phoneProblem } from '../../../common/org/account';
import { maskPhone } from '../../../common/org/phone-mask';
import { parseQuotaLabel, quotaAllowed, QUOTA_CHOICES } from '../../../common/org/quota';
import { neutraliseCell } from '../../../common/org/sheet-cells';
import { departmentPath, indexDepartments, subtreeIds, subtreeMembers, visibleRows } from '../../../common/org/tree';

const node = (id: string, parentId: string | null, name: string, sortOrder: number, memberCount = 1): DepartmentNode => ({
  id,
  parentId,
  name,
  sortOrder,
  managerId: null,
  managerName: null,
  memberCount,
  unassigned: false,
});

describe('account rules', () => {
  it('takes letters, digits, _ . - and compares case-insensitively', () => {
    expect(accountProblem('Li.Lei_01-x')).toBeNull();
    expect(accountProblem('a')).toBe('账号长度为2-32个字符');
    expect(accountProblem('x'.repeat(33))).toBe('账号长度为2-32个字符');
    expect(accountProblem('张三')).toBe('账号只能包含字母、数字、下划线、点和中划线');
    expect(accountProblem('a b')).toBe('账号只能包含字母、数字、下划线、点和中划线');
    expect(accountProblem('  ')).toBe('请输入账号');
    expect(accountKey(' Li.LEI ')).toBe('li.lei');
  });
  it('checks nicknames, phones and department names', () => {
    expect(nicknameProblem('张三')).toBeNull();
    expect(nicknameProblem('a\u200bb')).toBe('昵称不能包含控制字符或不可见字符');
    expect(phoneProblem('')).toBeNull();
    expect(phoneProblem('13800000000')).toBeNull();
    expect(phoneProblem('12800000000')).toBe('手机号格式不正确（11位手机号码）');
    expect(departmentNameProblem('研发/前端')).toBe('部门名称不能包含“/”');
    expect(departmentNameProblem('研发部')).toBeNull();
  });
});

describe('quota list', () => {
  it('accepts only listed quotas, written as in a sheet', () => {
    expect(QUOTA_CHOICES.every((q) => quotaAllowed(q.bytes))).toBe(true);
    expect(parseQuotaLabel('10GB')).toBe(10 * 1024 ** 3);
    expect(parseQuotaLabel(' 10 gb ')).toBe(10 * 1024 ** 3);
    expect(parseQuotaLabel('1T')).toBe(1024 ** 4);
    expect(parseQuotaLabel('3GB')).toBeNull();
    expect(parseQuotaLabel('lots')).toBeNull();
  });
});

describe('phone masks and sheet cells', () => {
  it('masks by each rule', () => {
    expect(maskPhone('13812341234', 'middle')).toBe('138****1234');
    expect(maskPhone('13812341234', 'tail')).toBe('*******1234');
    expect(maskPhone('13812341234', 'hidden')).toBe('');
    expect(maskPhone('13812341234', 'full')).toBe('13812341234');
    expect(maskPhone('', 'middle')).toBe('');
  });
  it('neutralises cells that would run as formulas', () => {
    for (const v of ['=cmd|x', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1']) expect(neutraliseCell(v)).toBe(`'${v}`);
    expect(neutraliseCell('张三')).toBe('张三');
    expect(neutraliseCell('a=b')).toBe('a=b');
  });
});

describe('department tree', () => {
  const index = indexDepartments([node('c', 'a', '前端', 20, 3), node('a', null, '研发', 10, 2), node('b', 'a', '后端', 10, 4), node('d', null, '市场', 20), node('e', 'c', 'Web', 10, 5)]);
  it('orders siblings, builds paths, subtrees and head counts', () => {
    expect(index.children.get('a')!.map((d) => d.name)).toEqual(['后端', '前端']);
    expect(departmentPath(index, 'e')).toBe('研发/前端/Web');
    expect([...subtreeIds(index, 'a')].sort()).toEqual(['a', 'b', 'c', 'e']);
    expect(subtreeMembers(index, 'a')).toBe(14);
  });
  it('shows expanded rows, and every search hit with its ancestors', () => {
    expect(visibleRows(index, new Set()).map((r) => r.node.name)).toEqual(['研发', '市场']);
    expect(visibleRows(index, new Set(['a'])).map((r) => [r.node.name, r.depth])).toEqual([
      ['研发', 0],
      ['后端', 1],
      ['前端', 1],
      ['市场', 0],
    ]);
    expect(visibleRows(index, new Set(), 'web').map((r) => r.node.name)).toEqual(['研发', '前端', 'Web']);
  });
});
