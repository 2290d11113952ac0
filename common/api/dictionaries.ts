import { QUOTA_CHOICES } from '../org/quota';
import type { DictGroup } from './tenant';

/**
 * The dictionaries every tenant starts with. A tenant's admin changes an entry's label, value,
 * order or whether it is on (POST /api/dict/item/update); entries are never added or removed, since
 * code reads them by their codes.
 *
 * - `module-switch` (spec §7 GET /api/dict/group/get): which modules the menu offers. Each code is a
 *   menu item's code; an entry turned off removes that item (and its pages: the route guard follows
 *   the menu, spec §2).
 * - `quota`, `customerTelephone`, `validity`: the static data lists of spec §3, also served by
 *   POST /api/staticData/list. `quota` values are bytes (the choices of common/org/quota.ts),
 *   `validity` values days (0 = never expires).
 */
export const DICT_GROUP = {
  moduleSwitch: 'module-switch',
  quota: 'quota',
  customerTelephone: 'customerTelephone',
  validity: 'validity',
} as const;

export const STATIC_DATA_NAMES: readonly string[] = [DICT_GROUP.quota, DICT_GROUP.customerTelephone, DICT_GROUP.validity];

const on = (code: string, label: string, value: string, sort: number) => ({ code, label, value, sort, enabled: true });

export const DEFAULT_DICTIONARIES: readonly DictGroup[] = [
  {
    code: DICT_GROUP.moduleSwitch,
    name: '模块开关',
    items: [
      on('file-backups', '同步文件', '1', 1),
      on('file-share', '共享文件', '1', 2),
      on('file-other', '交换区', '1', 3),
      on('file-public', '公共空间', '1', 4),
      on('group', '群组空间', '1', 5),
      on('notice', '消息', '1', 6),
      on('addressList', '通讯录', '1', 7),
    ],
  },
  { code: DICT_GROUP.quota, name: '空间配额', items: QUOTA_CHOICES.map((q, i) => on(q.label, q.label, String(q.bytes), i + 1)) },
  { code: DICT_GROUP.customerTelephone, name: '客服电话', items: [on('service', '客服电话', '400-000-0000', 1)] },
  {
    code: DICT_GROUP.validity,
    name: '有效期',
    items: [on('1', '1天', '1', 1), on('7', '7天', '7', 2), on('30', '30天', '30', 3), on('0', '永久有效', '0', 4)],
  },
];
