import { DEFAULT_DICTIONARIES, DICT_GROUP, STATIC_DATA_NAMES } from '../../common/api/dictionaries';
import { quotaBytesOf, quotaChoicesOf, type QuotaChoice } from '../../common/org/quota';
import { ERRORS } from '../../common/api/errors';
import type { DictItemUpdateRequest } from '../../common/api/endpoints/dictionaries';
import type { DictGroup, DictItem, StaticData } from '../../common/api/tenant';
import { AppError } from '../http/app-error';
import type { TenantConfigRepository } from '../repositories/tenant-config-repository';
import { actionLog, target } from './action-log/recorder';
import type { Caller } from './caller';

const LABEL_MAX = 64;
const VALUE_MAX = 256;

/**
 * Dictionaries (spec §7): the defaults of common/api/dictionaries.ts with each tenant's changes laid
 * over them, entry by entry. Also the static data lists (quota, customerTelephone, validity) and the
 * module switches the menu follows.
 */
export class DictService {
  constructor(private readonly repo: TenantConfigRepository) {}

  /** The tenant's version of the groups (all when `codes` is null), entries in their order. */
  async groups(tenantId: string, codes: readonly string[] | null): Promise<DictGroup[]> {
    const wanted = codes ? DEFAULT_DICTIONARIES.filter((g) => codes.includes(g.code)) : DEFAULT_DICTIONARIES;
    const overrides = await this.repo.dictItems(tenantId, wanted.map((g) => g.code));
    return wanted.map((g) => {
      const items: DictItem[] = g.items.map((item) => {
        const o = overrides.find((r) => r.group_code === g.code && r.item_code === item.code);
        return o ? { code: item.code, label: o.label, value: o.value, sort: Number(o.sort), enabled: o.enabled === 1 } : { ...item };
      });
      items.sort((a, b) => a.sort - b.sort || a.code.localeCompare(b.code));
      return { code: g.code, name: g.name, items };
    });
  }

  async group(tenantId: string, code: string): Promise<DictGroup> {
    const [group] = await this.groups(tenantId, [code]);
    if (!group) throw new AppError(ERRORS.DICT_NOT_FOUND);
    return group;
  }

  async updateItem(caller: Caller, req: DictItemUpdateRequest, now = Date.now()): Promise<DictGroup> {
    const group = await this.group(caller.tenantId, req.group);
    const item = group.items.find((i) => i.code === req.code);
    if (!item) throw new AppError(ERRORS.DICT_NOT_FOUND);
    const next: DictItem = {
      ...item,
      label: req.label !== undefined ? req.label.trim() : item.label,
      value: req.value !== undefined ? req.value.trim() : item.value,
      enabled: req.enabled ?? item.enabled,
      sort: req.sort ?? item.sort,
    };
    const changed = Object.fromEntries(
      (['label', 'value', 'enabled', 'sort'] as const).filter((k) => next[k] !== item[k]).map((k) => [k, { from: item[k], to: next[k] }]),
    );
    actionLog.record({ action: 'tenant.dictChange', targets: [target('setting', `${group.code}/${item.code}`, `${group.name}：${item.label}`)], detail: changed });
    if (next.label === '' || next.label.length > LABEL_MAX || next.value.length > VALUE_MAX) throw new AppError(ERRORS.VALIDATION, '名称不能为空且不超过 64 个字符，值不超过 256 个字符');
    // A quota entry's value is what accounts get: whole bytes, or the list would offer what the server refuses.
    if (group.code === DICT_GROUP.quota && quotaBytesOf(next.value) === null) throw new AppError(ERRORS.VALIDATION, '配额的值须为正整数字节数（不超过 1PB）');
    await this.repo.upsertDictItem({
      tenant_id: caller.tenantId,
      group_code: group.code,
      item_code: item.code,
      label: next.label,
      value: next.value,
      sort: next.sort,
      enabled: next.enabled ? 1 : 0,
      updated_at: now,
    });
    return this.group(caller.tenantId, group.code);
  }

  /** The static data lists asked for (only those names), enabled entries only. */
  async staticData(tenantId: string, names: readonly string[]): Promise<StaticData> {
    const unknown = names.find((n) => !STATIC_DATA_NAMES.includes(n));
    if (unknown !== undefined) throw new AppError(ERRORS.VALIDATION, `未知的静态数据：${unknown}`);
    const groups = await this.groups(tenantId, names);
    return Object.fromEntries(groups.map((g) => [g.code, g.items.filter((i) => i.enabled)]));
  }

  /** The tenant's `quota` list as choices (enabled entries with a valid value): what add, edit and import accept. */
  async quotaChoices(tenantId: string): Promise<QuotaChoice[]> {
    return quotaChoicesOf((await this.group(tenantId, DICT_GROUP.quota)).items);
  }

  /** Menu item codes the tenant turned off in the module-switch group. */
  async disabledModules(tenantId: string): Promise<Set<string>> {
    const group = await this.group(tenantId, 'module-switch');
    return new Set(group.items.filter((i) => !i.enabled).map((i) => i.code));
  }
}
