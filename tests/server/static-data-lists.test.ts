import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { StaticData, TenantAlias } from '../../common/api/tenant';
import type { SystemConfig } from '../../common/api/types';
import { QUOTA_CHOICES } from '../../common/org/quota';
import { expectError } from './file-kit';
import { ADMIN, Client, loggedInClient, startServer, type TestServer } from './helpers';
import { addUser, previewSheet, unassignedId, userBody } from './org-kit';

/**
 * The tenant's `quota` static-data list is the one list of quotas: what the user form offers
 * (staticData), what add, edit and the import accept, and what the template names — changed in
 * 系统配置 and in force from the next call.
 */
let server: TestServer;
let admin: Client;
let rootId: string;
const GIB = 1024 ** 3;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  rootId = await unassignedId(admin);
});
afterAll(async () => {
  await server.close();
});

const setEntry = (code: string, change: { enabled?: boolean; value?: string; label?: string }) => admin.post(API.dictItemUpdate, { group: 'quota', code, ...change });
const offered = async () => (await admin.post<{ data: StaticData }>(API.staticData, { names: ['quota'] })).body.data.quota!.map((i) => [i.label, Number(i.value)]);

describe('the quota list', () => {
  it('an entry turned off is neither offered, nor accepted on add, edit or import; an existing account keeps it', async () => {
    const keeper = await addUser(admin, 'quota.keeper', rootId, { quota: 1 * GIB });
    expect((await setEntry('1GB', { enabled: false })).status).toBe(200);
    try {
      expect((await offered()).map(([label]) => label)).toEqual(QUOTA_CHOICES.slice(1).map((q) => q.label));
      expectError(await admin.post(API.userAdd, userBody('quota.new', rootId, { quota: 1 * GIB })), ERRORS.QUOTA_NOT_ALLOWED.code);
      expect((await admin.post(API.userAdd, userBody('quota.new', rootId, { quota: 5 * GIB }))).status).toBe(200);
      // The keeper's account is edited without touching the quota it had before the change.
      const { password: _unused, ...profile } = userBody('quota.keeper', rootId, { quota: 1 * GIB, nickName: '保留' });
      expect((await admin.post(API.userEdit, { id: keeper.id, ...profile })).status).toBe(200);
      const preview = await previewSheet(admin, 'q.csv', '账号,昵称,配额\nq.one,甲,1GB\nq.two,乙,5GB\n');
      expect(preview.body.data.rows.map((r) => r.ok)).toEqual([false, true]);
      expect(preview.body.data.rows[0]!.reasons.join()).toContain('可选：5GB、10GB');
      expect(preview.body.data.rows[0]!.reasons.join()).not.toContain('1GB、');
      // The template's rules sheet names the tenant's list.
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await (await admin.raw(`${API.userImportTemplate}?format=xlsx`)).arrayBuffer());
      const rule = String(wb.getWorksheet('填写说明')!.getRow(7).getCell(2).value);
      expect(rule).toBe(`选填。可选：${QUOTA_CHOICES.slice(1).map((q) => q.label).join('、')}，留空为10GB`);
    } finally {
      expect((await setEntry('1GB', { enabled: true })).status).toBe(200);
    }
    expect((await admin.post(API.userAdd, userBody('quota.back', rootId, { quota: 1 * GIB }))).status).toBe(200);
  });

  it('an entry given another value and label: the new bytes are what add and import accept, by label too', async () => {
    expect((await setEntry('20GB', { value: String(30 * GIB), label: '30GB（项目组）' })).status).toBe(200);
    try {
      expect(await offered()).toContainEqual(['30GB（项目组）', 30 * GIB]);
      expectError(await admin.post(API.userAdd, userBody('quota.twenty', rootId, { quota: 20 * GIB })), ERRORS.QUOTA_NOT_ALLOWED.code);
      expect((await admin.post(API.userAdd, userBody('quota.thirty', rootId, { quota: 30 * GIB }))).status).toBe(200);
      const preview = await previewSheet(admin, 'q2.csv', '账号,昵称,配额\nq.three,丙,30GB（项目组）\nq.four,丁,30GB\nq.five,戊,20GB\n');
      expect(preview.body.data.rows.map((r) => r.ok)).toEqual([true, true, false]);
      // A value that is no quota is refused when set, so the list never offers what the server refuses.
      expectError(await setEntry('50GB', { value: '50GB' }), ERRORS.VALIDATION.code);
      expectError(await setEntry('50GB', { value: '0' }), ERRORS.VALIDATION.code);
    } finally {
      expect((await setEntry('20GB', { value: String(20 * GIB), label: '20GB' })).status).toBe(200);
    }
  });
});

describe('the help line', () => {
  it('customerTelephone reaches the system config every visitor reads first (login page, 404), from the next call; off = none', async () => {
    const anonymousConfig = async () => (await new Client(server.baseUrl).get<{ data: SystemConfig }>(API.systemConfig)).body.data;
    expect((await anonymousConfig()).customerTelephone).toBe('400-000-0000');
    expect((await admin.post(API.dictItemUpdate, { group: 'customerTelephone', code: 'service', value: '010-8888 6666' })).status).toBe(200);
    expect((await anonymousConfig()).customerTelephone).toBe('010-8888 6666');
    expect((await admin.get<{ data: SystemConfig }>(API.systemConfig)).body.data.customerTelephone).toBe('010-8888 6666');
    // A tenant's own login page (/login/{alias}) reads it from getAlias.
    expect((await new Client(server.baseUrl).get<{ data: TenantAlias }>(API.tenantAlias)).body.data.customerTelephone).toBe('010-8888 6666');
    expect((await admin.post(API.dictItemUpdate, { group: 'customerTelephone', code: 'service', enabled: false })).status).toBe(200);
    expect((await anonymousConfig()).customerTelephone).toBe('');
    expect((await admin.post(API.dictItemUpdate, { group: 'customerTelephone', code: 'service', enabled: true, value: '400-000-0000' })).status).toBe(200);
  });
});
