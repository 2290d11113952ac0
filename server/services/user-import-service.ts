import type { ImportCommitRequest } from '../../common/api/endpoints/user-import';
import { ERRORS } from '../../common/api/errors';
import {
  IMPORT_BATCH_TTL_MS,
  IMPORT_COLUMNS,
  type ImportColumn,
  type ImportFormat,
  type ImportPreview,
  type ImportResult,
  type ImportRow,
} from '../../common/api/org-types';
import { decryptPassword } from '../../common/crypto/password-cipher';
import { defaultQuotaOf, QUOTA_CHOICES, type QuotaChoice } from '../../common/org/quota';
import { validateNewPassword } from '../../common/validation/password';
import type { Db } from '../db/database';
import type { DepartmentsTable, UsersTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { DepartmentRepository } from '../repositories/department-repository';
import { BatchAlreadyImported, UserImportRepository, type Taken } from '../repositories/user-import-repository';
import { newAccountRow } from './account-profile';
import type { Caller } from './caller';
import { departmentPaths, judgeRows, type ImportContext } from './import/import-rows';
import { readSheet, writeSheets, type SheetRow } from './import/sheet-io';
import { hashPassword } from './password-hash';
import { actionLog } from './action-log/recorder';

const rowToSheet = (r: ImportRow): SheetRow => ({
  row: r.row,
  cells: { 账号: r.website, 昵称: r.nickName, 手机号: r.phone, 部门: r.department, 角色: r.role, 配额: r.quota, 外网登录: r.outerLogin },
});

const rowCells = (r: ImportRow): string[] => [r.website, r.nickName, r.phone, r.department, r.role, r.quota, r.outerLogin];

/**
 * 批量新增 (rules: ImportPreview / ImportCommitRequest in org-types.ts): the template, a preview that
 * judges every row, the import of the good rows in one transaction, and the result as a sheet.
 * Sheets are read and written by exceljs (server/services/import/sheet-io.ts).
 */
export class UserImportService {
  private readonly repo: UserImportRepository;

  constructor(
    db: Db,
    private readonly departments: DepartmentRepository,
    /** Imported people change the tree's head counts: the cached tree is dropped. */
    private readonly orgChanged: (tenantId: string) => Promise<void> = async () => undefined,
    /** The tenant's `quota` static-data list (DictService.quotaChoices). */
    private readonly quotaChoices: (tenantId: string) => Promise<QuotaChoice[]> = async () => [...QUOTA_CHOICES],
  ) {
    this.repo = new UserImportRepository(db);
  }

  private static async context(rows: SheetRow[], depts: DepartmentsTable[], taken: (keys: string[], phones: string[]) => Promise<Taken>, quotaChoices: readonly QuotaChoice[]): Promise<ImportContext> {
    const keys = [...new Set(rows.map((r) => r.cells['账号'].trim().toLowerCase()).filter(Boolean))];
    const phones = [...new Set(rows.map((r) => r.cells['手机号'].replace(/[\s-]/g, '')).filter(Boolean))];
    const t = await taken(keys, phones);
    return { departments: departmentPaths(depts), takenAccounts: t.accounts, takenPhones: t.phones, quotaChoices };
  }

  async preview(caller: Caller, fileName: string, file: Buffer, now = Date.now()): Promise<ImportPreview> {
    await this.departments.ensureUnassigned(caller.tenantId);
    const rows = await readSheet(file);
    const ctx = await UserImportService.context(rows, await this.departments.all(caller.tenantId), (k, p) => this.repo.takenNow(caller.tenantId, k, p), await this.quotaChoices(caller.tenantId));
    const { judged } = judgeRows(rows, ctx);
    const batchId = newId();
    const name = fileName.slice(0, 200) || '导入文件';
    await this.repo.saveBatch(
      { id: batchId, tenant_id: caller.tenantId, created_by: caller.userId, file_name: name, rows: JSON.stringify(judged), status: 'preview', created_at: now, expires_at: now + IMPORT_BATCH_TTL_MS },
      now,
    );
    const good = judged.filter((r) => r.ok).length;
    return { batchId, fileName: name, total: judged.length, good, bad: judged.length - good, rows: judged };
  }

  async commit(caller: Caller, req: ImportCommitRequest, now = Date.now()): Promise<ImportResult> {
    const batch = await this.repo.findBatch(caller.tenantId, req.batchId, now);
    if (!batch) throw new AppError(ERRORS.IMPORT_BATCH_NOT_FOUND);
    if (batch.status !== 'preview') throw new AppError(ERRORS.IMPORT_ALREADY_DONE);
    const password = decryptPassword(req.password) ?? '';
    const broken = validateNewPassword(password);
    if (broken) throw new AppError(ERRORS.PASSWORD_INVALID, broken);
    // One hash for the batch: every imported account shares this initial password by design and must
    // change it at first login; 10,000 scrypt hashes would take minutes.
    const passwordHash = await hashPassword(password);
    const previewed = JSON.parse(batch.rows) as ImportRow[];
    let final: ImportRow[] = previewed;
    try {
      const quotaChoices = await this.quotaChoices(caller.tenantId);
      const imported = await this.repo.importInTransaction(caller.tenantId, batch.id, async (current) => {
        const candidates = previewed.filter((r) => r.ok).map(rowToSheet);
        const ctx = await UserImportService.context(candidates, await current.departments(), current.taken, quotaChoices);
        const { judged, accounts } = judgeRows(candidates, ctx);
        const again = new Map(judged.map((r) => [r.row, r]));
        final = previewed.map((r) => again.get(r.row) ?? r);
        const users: UsersTable[] = [...accounts.values()].map((a) => newAccountRow(caller.tenantId, newId(), a, passwordHash, now));
        return { users, rowsJson: JSON.stringify(final) };
      });
      await this.orgChanged(caller.tenantId);
      actionLog.record({ action: 'user.batchImport', detail: { batchId: batch.id, fileName: batch.file_name, imported, skipped: final.length - imported } });
      return { batchId: batch.id, imported, skipped: final.length - imported, rows: final };
    } catch (err) {
      if (err instanceof BatchAlreadyImported) throw new AppError(ERRORS.IMPORT_ALREADY_DONE);
      throw err;
    }
  }

  /** Every row of a batch with its verdict (the import's when it ran, else the preview's). */
  async result(caller: Caller, batchId: string, format: ImportFormat, now = Date.now()): Promise<{ file: Buffer; fileName: string }> {
    const batch = await this.repo.findBatch(caller.tenantId, batchId, now);
    if (!batch) throw new AppError(ERRORS.IMPORT_BATCH_NOT_FOUND);
    const rows = JSON.parse(batch.rows) as ImportRow[];
    const imported = batch.status === 'imported';
    const file = await writeSheets(format, [
      {
        name: '导入结果',
        header: ['行号', ...IMPORT_COLUMNS, '结果', '原因'],
        rows: rows.map((r) => [String(r.row), ...rowCells(r), r.ok ? (imported ? '已导入' : '可导入') : '未导入', r.reasons.join('；')]),
        widths: [8, 18, 14, 16, 24, 10, 10, 10, 10, 48],
        textColumns: [1, 3],
      },
    ]);
    const base = batch.file_name.replace(/\.(xlsx|csv)$/i, '');
    return { file, fileName: `${base}-导入结果.${format}` };
  }

  /** The template: the columns, dropdowns for role, quota and outer login, and a sheet of rules with the tenant's department paths. */
  async template(caller: Caller, format: ImportFormat): Promise<Buffer> {
    await this.departments.ensureUnassigned(caller.tenantId);
    const depts = await this.departments.all(caller.tenantId);
    const byId = new Map(depts.map((d) => [d.id, d]));
    const pathOf = (d: DepartmentsTable): string => {
      const names: string[] = [];
      for (let at: DepartmentsTable | undefined = d, i = 0; at && i < 100; i++, at = at.parent_id ? byId.get(at.parent_id) : undefined) names.unshift(at.name);
      return names.join('/');
    };
    const col = (c: ImportColumn) => IMPORT_COLUMNS.indexOf(c);
    const quotas = await this.quotaChoices(caller.tenantId);
    const rules: string[][] = [
      ['账号', '必填。2-32位字母、数字、下划线、点或中划线，同一企业内不区分大小写且不能重复'],
      ['昵称', '必填。最多32个字符'],
      ['手机号', '选填。11位手机号码，不能与其他账号重复'],
      ['部门', '选填。部门路径，各级用“/”分隔，如：研发部/前端组；留空为“未分配”'],
      ['角色', '选填。管理员 或 普通用户，留空为普通用户'],
      ['配额', `选填。可选：${quotas.map((q) => q.label).join('、')}，留空为${defaultQuotaOf(quotas).label}`],
      ['外网登录', '选填。是 或 否，留空为否'],
      ['初始密码', '导入时在页面上统一设置，用户首次登录须修改'],
      ['', ''],
      ['现有部门', ''],
      ...depts.map((d) => [pathOf(d), '']).sort((a, b) => a[0]!.localeCompare(b[0]!)),
    ];
    return writeSheets(format, [
      {
        name: '用户',
        header: [...IMPORT_COLUMNS],
        rows: [],
        widths: [18, 14, 16, 24, 10, 10, 10],
        textColumns: [col('账号'), col('手机号')],
        choices: { [col('角色')]: ['管理员', '普通用户'], [col('配额')]: quotas.map((q) => q.label), [col('外网登录')]: ['是', '否'] },
      },
      { name: '填写说明', header: ['列', '说明'], rows: rules, widths: [30, 80] },
    ]);
  }
}
