/** 操作日志's object column (issue 44 item 9): each object once, by name, never a raw id. */
import { describe, expect, it } from 'vitest';
import type { ActionTarget } from '../../../common/api/action-codes';
import { objectTargets, targetsText } from '../../../src/features/action-log/labels';

const t = (type: ActionTarget['type'], id: string, name: string): ActionTarget => ({ type, id, name });

describe('action log objects', () => {
  it('a link, share or application recorded beside the files it is named after shows as those files', () => {
    expect(targetsText([t('file', 'f1', '合同.pdf'), t('link', 'l1', '合同.pdf')])).toBe('合同.pdf');
    expect(targetsText([t('link', 'l1', '合同.pdf'), t('file', 'f1', '合同.pdf')])).toBe('合同.pdf');
    expect(targetsText([t('share', 's1', '合同.pdf'), t('file', 'f1', '合同.pdf')])).toBe('合同.pdf');
    expect(targetsText([t('application', 'a1', '合同.pdf、报价.xlsx'), t('file', 'f1', '合同.pdf'), t('file', 'f2', '报价.xlsx')])).toBe('合同.pdf、报价.xlsx');
  });

  it('a link named after a file not in the record keeps its name', () => {
    expect(targetsText([t('link', 'l1', '合同.pdf')])).toBe('合同.pdf');
    expect(objectTargets([t('link', 'l1', '合同.pdf')])).toEqual([t('link', 'l1', '合同.pdf')]);
  });

  it('a target recorded without a name (a refused call) shows its kind, never the id it was sent', () => {
    expect(targetsText([t('link', 'Zz9Zz9Zz9Zz9Zz9Zz9Zz9Z', '')])).toBe('分享链接');
    expect(targetsText([t('share', 'a', ''), t('share', 'b', '')])).toBe('共享');
    expect(targetsText([t('group', 'g', '项目组'), t('user', '', 'zhangsan')])).toBe('项目组、zhangsan');
    expect(targetsText([])).toBe('-');
  });

  it('a switch recorded by its key (before switches had names) reads as 系统配置 names it', () => {
    expect(targetsText([t('setting', 'exchangeSwitch', 'exchangeSwitch')])).toBe('交换区');
    expect(targetsText([t('setting', 'phoneMask', '通讯录手机号显示规则')])).toBe('通讯录手机号显示规则');
  });

  it('the same name twice shows once; more than three are counted', () => {
    expect(targetsText([t('file', 'a', 'x'), t('file', 'b', 'x')])).toBe('x');
    expect(targetsText(['a', 'b', 'c', 'd'].map((n) => t('file', n, n)))).toBe('a、b、c 等 4 项');
  });
});
