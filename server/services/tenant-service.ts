import { ERRORS } from '../../common/api/errors';
import {
  DEFAULT_HOME_PAGE,
  DEFAULT_TENANT_SWITCHES,
  isHomePage,
  SYNC_TIME_MAX,
  SYNC_TIME_MIN,
  TENANT_ALIAS_PATTERN,
  TENANT_NAME_MAX,
  TENANT_SWITCH_LABELS,
  type TenantAlias,
  type TenantInfo,
  type TenantListResponse,
  type TenantSwitches,
} from '../../common/api/tenant';
import { GESTURE_IDLE_MAX, GESTURE_IDLE_MIN } from '../../common/gesture/pattern';
import type { TenantUpdateRequest } from '../../common/api/endpoints/tenant';
import { isUniqueViolation } from '../db/database';
import type { TenantsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { TenantConfigRepository } from '../repositories/tenant-config-repository';
import type { TenantProfilePatch, TenantRepository } from '../repositories/tenant-repository';
import type { BlobStore } from '../storage/byte-store';
import { actionLog, target } from './action-log/recorder';
import type { Caller } from './caller';
import { backgroundUrlOf, logoUrlOf, tenantVersion as version } from './tenant-urls';
import { defaultLogoSvg } from './logo-svg';
import { reencodeTenantPicture } from './tenant-images';

/** At most this many tenants in one list (a platform of more pages them: not needed yet). */
const TENANT_LIST_MAX = 1000;

export type SwitchKey = keyof TenantSwitches;

const tenantTarget = (t: TenantsTable) => target('tenant', t.id, t.brand_name);

function cleanName(raw: string): string {
  const name = raw.trim();
  const control = [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (name === '' || name.length > TENANT_NAME_MAX || control) throw new AppError(ERRORS.TENANT_NAME_INVALID);
  return name;
}

/**
 * The tenant's profile (name, brand, alias, logo, login background) and its admin switches. A
 * tenant admin acts on their own tenant; a platform admin may name another (`tenantId`); anyone
 * else naming another tenant gets TENANT_NOT_FOUND, as for an id no tenant has.
 */
export class TenantService {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly config: TenantConfigRepository,
    private readonly blobs: BlobStore,
    /** The tenant's help line (static data `customerTelephone`, '' when off), shown on its login page. */
    private readonly helpLine: (tenantId: string) => Promise<string> = async () => '',
  ) {}

  /** At start: a platform admin exists (common/api/tenant.ts says who). */
  async init(): Promise<void> {
    await this.tenants.ensurePlatformAdmin();
  }

  /** The tenant a call acts on. */
  async targetOf(caller: Caller, tenantId: string | undefined): Promise<TenantsTable> {
    const id = tenantId || caller.tenantId;
    if (id !== caller.tenantId && !caller.platformAdmin) throw new AppError(ERRORS.TENANT_NOT_FOUND);
    const tenant = await this.tenants.findById(id);
    if (!tenant) throw new AppError(ERRORS.TENANT_NOT_FOUND);
    return tenant;
  }

  /** Public: a login page's tenant by id or alias, or the default tenant. */
  async alias(idOrAlias: string | undefined): Promise<TenantAlias> {
    const tenant = (idOrAlias ? await this.tenants.findByIdOrAlias(idOrAlias) : undefined) ?? (await this.tenants.findDefault());
    if (!tenant) throw new AppError(ERRORS.TENANT_NOT_FOUND);
    return { ...this.aliasOf(tenant), customerTelephone: await this.helpLine(tenant.id) };
  }

  private aliasOf(t: TenantsTable): TenantAlias {
    return { tenantId: t.id, alias: t.alias ?? '', brandName: t.brand_name, logo: logoUrlOf(t), loginBackground: backgroundUrlOf(t) };
  }

  async info(caller: Caller, tenantId?: string): Promise<TenantInfo> {
    return this.infoOf(await this.targetOf(caller, tenantId));
  }

  private async infoOf(t: TenantsTable): Promise<TenantInfo> {
    return { ...this.aliasOf(t), name: t.name, createdAt: Number(t.created_at), updatedAt: version(t), switches: await this.switches(t.id), homeUrl: t.home_url ?? DEFAULT_HOME_PAGE };
  }

  async list(caller: Caller): Promise<TenantListResponse> {
    const platformAdmin = Boolean(caller.platformAdmin);
    const rows = await this.tenants.listWithUserCounts(platformAdmin ? null : caller.tenantId, TENANT_LIST_MAX);
    return {
      platformAdmin,
      items: rows.map((t) => ({
        tenantId: t.id,
        name: t.name,
        alias: t.alias ?? '',
        brandName: t.brand_name,
        createdAt: Number(t.created_at),
        userCount: t.user_count,
        own: t.id === caller.tenantId,
      })),
    };
  }

  async update(caller: Caller, req: TenantUpdateRequest, now = Date.now()): Promise<TenantInfo> {
    const tenant = await this.targetOf(caller, req.tenantId);
    const changes: Record<string, unknown> = {};
    actionLog.record({ action: 'tenant.update', targets: [tenantTarget(tenant)], detail: changes });
    const patch: TenantProfilePatch = {};
    if (req.name !== undefined) {
      patch.name = cleanName(req.name);
      changes.name = { from: tenant.name, to: patch.name };
    }
    if (req.brandName !== undefined) {
      patch.brand_name = cleanName(req.brandName);
      changes.brandName = { from: tenant.brand_name, to: patch.brand_name };
    }
    if (req.alias !== undefined) {
      const alias = req.alias.trim();
      if (alias !== '' && !TENANT_ALIAS_PATTERN.test(alias)) throw new AppError(ERRORS.TENANT_ALIAS_INVALID);
      patch.alias = alias || null;
      patch.alias_key = alias ? alias.toLowerCase() : null;
      changes.alias = { from: tenant.alias ?? '', to: alias };
    }
    if (req.homeUrl !== undefined) {
      if (!isHomePage(req.homeUrl)) throw new AppError(ERRORS.TENANT_HOME_PAGE_INVALID);
      patch.home_url = req.homeUrl === DEFAULT_HOME_PAGE ? null : req.homeUrl;
      changes.homeUrl = { from: tenant.home_url ?? DEFAULT_HOME_PAGE, to: req.homeUrl };
    }
    // Pictures are checked and re-encoded before anything is stored: a bad one changes nothing.
    const logo = req.logo ? await reencodeTenantPicture(req.logo, 'logo') : null;
    const background = req.loginBackground ? await reencodeTenantPicture(req.loginBackground, 'background') : null;
    const stale: string[] = [];
    if (logo) {
      patch.logo_key = await this.store(logo);
      patch.logo_type = 'webp';
      changes.logo = { bytes: logo.length };
      if (tenant.logo_key) stale.push(tenant.logo_key);
    }
    if (background) {
      patch.background_key = await this.store(background);
      patch.background_type = 'webp';
      changes.loginBackground = { bytes: background.length };
      if (tenant.background_key) stale.push(tenant.background_key);
    }
    try {
      await this.tenants.updateProfile(tenant.id, patch, Math.max(now, version(tenant) + 1));
    } catch (err) {
      for (const key of [patch.logo_key, patch.background_key]) if (key) await this.blobs.remove(key);
      if (isUniqueViolation(err)) throw new AppError(ERRORS.TENANT_ALIAS_TAKEN);
      throw err;
    }
    for (const key of stale) await this.blobs.remove(key);
    return this.info(caller, tenant.id);
  }

  /** Back to the generated logo (the brand's initials). */
  async resetLogo(caller: Caller, tenantId: string | undefined, now = Date.now()): Promise<TenantInfo> {
    const tenant = await this.targetOf(caller, tenantId);
    actionLog.record({ action: 'tenant.resetLogo', targets: [tenantTarget(tenant)] });
    const key = await this.store(Buffer.from(defaultLogoSvg(tenant.brand_name), 'utf8'));
    await this.tenants.updateProfile(tenant.id, { logo_key: key, logo_type: null }, Math.max(now, version(tenant) + 1));
    if (tenant.logo_key) await this.blobs.remove(tenant.logo_key);
    return this.info(caller, tenant.id);
  }

  /** Back to the default login background (none). */
  async resetBackground(caller: Caller, tenantId: string | undefined, now = Date.now()): Promise<TenantInfo> {
    const tenant = await this.targetOf(caller, tenantId);
    actionLog.record({ action: 'tenant.resetBackground', targets: [tenantTarget(tenant)] });
    await this.tenants.updateProfile(tenant.id, { background_key: null, background_type: null }, Math.max(now, version(tenant) + 1));
    if (tenant.background_key) await this.blobs.remove(tenant.background_key);
    return this.info(caller, tenant.id);
  }

  async switches(tenantId: string): Promise<TenantSwitches> {
    const rows = await this.config.switches(tenantId);
    const out: TenantSwitches = { ...DEFAULT_TENANT_SWITCHES };
    for (const r of rows) {
      if (r.key === 'syncTime' || r.key === 'gestureIdle') out[r.key] = Number(r.value);
      else if (r.key in out) (out as unknown as Record<string, boolean>)[r.key] = r.value === '1';
    }
    return out;
  }

  /** One admin switch (spec §7, form-encoded). */
  async setSwitch(caller: Caller, key: SwitchKey, raw: string, tenantId: string | undefined, now = Date.now()): Promise<TenantSwitches> {
    const tenant = await this.targetOf(caller, tenantId);
    const before = await this.switches(tenant.id);
    const entry = { action: 'tenant.settingChange' as const, targets: [target('setting', key, TENANT_SWITCH_LABELS[key])], detail: { tenantId: tenant.id, from: before[key], to: raw as unknown } };
    actionLog.record(entry);
    let value: string;
    if (key === 'syncTime' || key === 'gestureIdle') {
      const [min, max] = key === 'syncTime' ? [SYNC_TIME_MIN, SYNC_TIME_MAX] : [GESTURE_IDLE_MIN, GESTURE_IDLE_MAX];
      const minutes = Number(raw);
      if (!/^\d+$/.test(raw) || minutes < min || minutes > max) throw new AppError(ERRORS.VALIDATION, `${TENANT_SWITCH_LABELS[key]}须为 ${min}-${max} 分钟`);
      value = String(minutes);
      entry.detail.to = minutes;
    } else {
      if (raw !== '0' && raw !== '1') throw new AppError(ERRORS.VALIDATION, '开关的值须为 0 或 1');
      value = raw;
      entry.detail.to = raw === '1';
    }
    await this.config.setSwitch(tenant.id, key, value, now);
    return this.switches(tenant.id);
  }

  private async store(bytes: Buffer): Promise<string> {
    const writer = await this.blobs.createWriter();
    try {
      await writer.write(bytes);
      return await writer.commit();
    } catch (err) {
      await writer.abort();
      throw err;
    }
  }
}
