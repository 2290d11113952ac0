import http from 'node:http';
import { createDeflateRaw } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { IMPORT_COLUMNS, type ImportResult, type UserListResponse } from '../../common/api/org-types';
import { API } from '../../common/api/paths';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { expectError } from './file-kit';
import { addFailingTrigger, type Client, login, startServerAsAdmin, withDb, type TestServer, Client as FreshClient } from './helpers';
import { addUser, createDepartment, INITIAL_PASSWORD, previewSheet, unassignedId } from './org-kit';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
  const rd = await createDepartment(admin, '研发部');
  await createDepartment(admin, '前端组', rd.id);
  await addUser(admin, 'taken', await unassignedId(admin), { phone: '13900001111' });
});
afterAll(async () => {
  await server.close();
});

async function xlsx(rows: string[][], header: readonly string[] = IMPORT_COLUMNS): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('用户');
  ws.addRow([...header]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function readBack(bytes: ArrayBuffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes);
  const out: string[][] = [];
  wb.worksheets[0]!.eachRow((row) => out.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return out;
}

const userCount = () => withDb(server, (db) => (db.prepare('select count(*) as n from users').get() as { n: number }).n);

const MIXED: string[][] = [
  ['zhang.san', '张三', '13700000001', '研发部/前端组', '普通用户', '10GB', '是'],
  ['li_si', '李四', '', '', '管理员', '', ''],
  ['ZHANG.SAN', '张三二号', '', '', '', '', ''],
  ['taken', '已存在', '', '', '', '', ''],
  ['wang.wu', '王五', '12345', '', '', '', ''],
  ['zhao.liu', '赵六', '', '市场部', '', '', ''],
  ['qian.qi', '钱七', '', '', '', '3GB', ''],
  ['sun.ba', '孙八', '13900001111', '', '', '', ''],
  ['evil', '=cmd|\' /C calc\'!A0', '', '', '', '', ''],
  ['zhou.jiu', '周九', '13700000001', '', '超级用户', '', '也许'],
];

describe('batch import', () => {
  it('serves the template with the Chinese headers, dropdowns and the department paths', async () => {
    const res = await admin.raw(`${API.userImportTemplate}?format=xlsx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    expect((wb.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual([...IMPORT_COLUMNS]);
    const paths: string[] = [];
    wb.worksheets[1]!.eachRow((row) => paths.push(String(row.getCell(1).value ?? '')));
    expect(paths).toEqual(expect.arrayContaining(['研发部', '研发部/前端组', '未分配']));
    const csv = await admin.raw(`${API.userImportTemplate}?format=csv`);
    expect(Buffer.from(await csv.arrayBuffer()).toString('utf8')).toBe(`\ufeff${IMPORT_COLUMNS.join(',')}\r\n`);
  });

  it('previews every row with its exact reasons, imports the good ones in one go, and hands back a neutralised result', async () => {
    const before = await userCount();
    const preview = await previewSheet(admin, '员工.xlsx', await xlsx(MIXED));
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const p = preview.body.data;
    expect(await userCount()).toBe(before);
    expect(p).toMatchObject({ fileName: '员工.xlsx', total: 10, good: 3, bad: 7 });
    const reasons = Object.fromEntries(p.rows.map((r) => [r.row, r.reasons]));
    expect(reasons).toEqual({
      2: [],
      3: [],
      4: ['账号在文件中重复（与第2行相同）'],
      5: ['账号已存在'],
      6: ['手机号格式不正确（11位手机号码）'],
      7: ['部门不存在：市场部'],
      8: ['配额不在可选范围内（可选：1GB、5GB、10GB、20GB、50GB、100GB、200GB、500GB、1TB）'],
      9: ['手机号已被其他账号使用'],
      10: [],
      11: ['手机号在文件中重复（与第2行相同）', '角色只能是“管理员”或“普通用户”', '外网登录只能填“是”或“否”'],
    });
    expectError(await admin.post(API.userImportCommit, { batchId: p.batchId, password: encryptPassword('weak') }), ERRORS.PASSWORD_INVALID.code);
    const done = await admin.post<{ data: ImportResult }>(API.userImportCommit, { batchId: p.batchId, password: encryptPassword(INITIAL_PASSWORD) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ imported: 3, skipped: 7 });
    expect(await userCount()).toBe(before + 3);
    expectError(await admin.post(API.userImportCommit, { batchId: p.batchId, password: encryptPassword(INITIAL_PASSWORD) }), ERRORS.IMPORT_ALREADY_DONE.code);

    const listed = await admin.post<{ data: UserListResponse }>(API.userList, { keyword: 'zhang.san' });
    expect(listed.body.data.items[0]).toMatchObject({ website: 'zhang.san', phone: '13700000001', outerLogin: true, mustChangePassword: true });
    const li = await admin.post<{ data: UserListResponse }>(API.userList, { keyword: 'li_si' });
    expect(li.body.data.items[0]).toMatchObject({ role: 'admin', outerLogin: false });
    const first = await login(server, new FreshClient(server.baseUrl), { username: 'Zhang.San', password: INITIAL_PASSWORD });
    expect(first.body.data.passwordChangeType).toBe(1);

    const result = await admin.raw(`${API.userImportResult}?batchId=${p.batchId}&format=xlsx`);
    const rows = await readBack(await result.arrayBuffer());
    expect(rows[0]).toEqual(['行号', ...IMPORT_COLUMNS, '结果', '原因']);
    const evil = rows.find((r) => r[1] === 'evil')!;
    expect(evil[2]).toBe("'=cmd|' /C calc'!A0");
    expect(evil[8]).toBe('已导入');
    expect(rows.find((r) => r[1] === 'wang.wu')![9]).toBe('手机号格式不正确（11位手机号码）');
    const csv = Buffer.from(await (await admin.raw(`${API.userImportResult}?batchId=${p.batchId}&format=csv`)).arrayBuffer()).toString('utf8');
    expect(csv).toContain(`,'=cmd|' /C calc'!A0,`);
    expect(csv.split('\r\n').some((line) => /(^|,)[=+\-@]/.test(line))).toBe(false);
  });

  it('judges rows again at import: a row taken since the preview is skipped with its reason', async () => {
    const preview = await previewSheet(admin, 'later.csv', '账号,昵称\nlate.one,甲\nlate.two,乙\n');
    expect(preview.body.data.good).toBe(2);
    await addUser(admin, 'late.two', await unassignedId(admin));
    const done = await admin.post<{ data: ImportResult }>(API.userImportCommit, { batchId: preview.body.data.batchId, password: encryptPassword(INITIAL_PASSWORD) });
    expect(done.body.data.imported).toBe(1);
    expect(done.body.data.rows.find((r) => r.website === 'late.two')!.reasons).toEqual(['账号已存在']);
  });

  it('imports nothing when any insert fails', async () => {
    const preview = await previewSheet(admin, 'all-or-nothing.csv', '账号,昵称\nbatch.a,甲\nbatch.b,乙\nbatch.c,丙\n');
    const before = await userCount();
    const dropTrigger = await addFailingTrigger(server, 'no_c', 'before insert', 'users', "new.username = 'batch.c'");
    expect((await admin.post(API.userImportCommit, { batchId: preview.body.data.batchId, password: encryptPassword(INITIAL_PASSWORD) })).status).toBe(500);
    await dropTrigger();
    expect(await userCount()).toBe(before);
    // The batch was not used up: it imports once the obstacle is gone.
    const done = await admin.post<{ data: ImportResult }>(API.userImportCommit, { batchId: preview.body.data.batchId, password: encryptPassword(INITIAL_PASSWORD) });
    expect(done.body.data.imported).toBe(3);
  });

  it('reads CSV in UTF-8 with BOM and in GB18030 (Excel in Chinese), keeping leading zeros', async () => {
    const utf8 = await previewSheet(admin, 'bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('账号,昵称,部门\n007,零零七,研发部\n', 'utf8')]));
    expect(utf8.body.data.rows[0]).toMatchObject({ website: '007', nickName: '零零七', ok: true });
    // "账号,昵称\ngbk.user,中文" in GB18030.
    const gbk = Buffer.concat([
      Buffer.from([0xd5, 0xcb, 0xba, 0xc5, 0x2c, 0xea, 0xc7, 0xb3, 0xc6, 0x0a]),
      Buffer.from('gbk.user,'),
      Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0x0a]),
    ]);
    const res = await previewSheet(admin, 'gbk.csv', gbk);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.rows[0]).toMatchObject({ website: 'gbk.user', nickName: '中文', ok: true });
  });
});

/** A one-member ZIP whose member inflates to `inflated` bytes of zeros (a "zip bomb" when large). */
async function zipBomb(inflated: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const ended = new Promise((r) => deflate.on('end', r));
  const mb = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < inflated / mb.length; i++) if (!deflate.write(mb)) await new Promise((r) => deflate.once('drain', r));
  deflate.end();
  await ended;
  const data = Buffer.concat(parts);
  const name = Buffer.from('xl/worksheets/sheet1.xml');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(1000, 22); // a lying declared size
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(1000, 24);
  central.writeUInt16LE(name.length, 28);
  const dirOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(dirOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

describe('hostile and broken files', () => {
  it('refuses each with a clear error and imports nothing', async () => {
    const before = await userCount();
    const cases: Array<[string, Buffer | string, string, number?]> = [
      ['empty.csv', '', ERRORS.IMPORT_EMPTY.code],
      ['headers-only.csv', '账号,昵称\n', ERRORS.IMPORT_EMPTY.code],
      ['no-headers.csv', 'a,b\nc,d\n', ERRORS.IMPORT_HEADERS_INVALID.code],
      ['old.xls', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]), ERRORS.IMPORT_FILE_INVALID.code],
      ['broken.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]), ERRORS.IMPORT_FILE_INVALID.code],
      ['truncated.xlsx', (await xlsx([['a.b', 'c']])).subarray(0, 600), ERRORS.IMPORT_FILE_INVALID.code],
      ['binary.csv', Buffer.from([0, 1, 2, 3, 255, 0, 0]), ERRORS.IMPORT_FILE_INVALID.code],
      ['bomb.xlsx', await zipBomb(300 * 1024 * 1024), ERRORS.IMPORT_FILE_INVALID.code],
    ];
    for (const [name, bytes, code, status] of cases) {
      const res = await previewSheet(admin, name, bytes);
      expect(res.status, `${name} ${JSON.stringify(res.body)}`).toBe(status ?? 400);
      expect(res.body.errorCode, name).toBe(code);
      expect(res.body.errorMessage, name).toBeTruthy();
    }
    const bomb = await previewSheet(admin, 'bomb.xlsx', await zipBomb(300 * 1024 * 1024));
    expect(bomb.body.errorMessage).toContain('文件解压后过大');
    const tooMany = '账号,昵称\n' + Array.from({ length: 20_001 }, (_, i) => `u${i},n`).join('\n');
    expectError(await previewSheet(admin, 'many.csv', tooMany), ERRORS.IMPORT_TOO_MANY_ROWS.code);
    expect(await userCount()).toBe(before);
  });

  it('refuses a 50 MB file before reading it, also when sent without a length, importing nothing', async () => {
    const before = await userCount();
    // A declared 50 MB is answered at once, before the body is parsed; Node discards what still
    // arrives, so the client (raw HTTP, still writing) reads the answer.
    const declared = await sendUntilAnswered(true, 50 * 1024 * 1024);
    expect(declared.status).toBe(413);
    expect(declared.sentBytes).toBeLessThan(50 * 1024 * 1024);
    expect(JSON.parse(declared.body)).toEqual({ errorCode: ERRORS.IMPORT_FILE_TOO_LARGE.code, errorMessage: '文件超过10MB，请拆分后再导入' });
    // Without a length the reading stops just past 10 MB: the server answers 413 and may end the
    // connection while the client is still writing (then the client sees the reset, not the answer).
    // Either way it stops long before 50 MB. Browsers always send a length for a picked file.
    const streamed = await sendUntilAnswered(false, 50 * 1024 * 1024);
    expect(streamed.sentBytes).toBeLessThan(30 * 1024 * 1024);
    if (streamed.status !== 0) {
      expect(streamed.status).toBe(413);
      expect(JSON.parse(streamed.body)).toMatchObject({ errorCode: ERRORS.IMPORT_FILE_TOO_LARGE.code });
    } else expect(streamed.body).toMatch(/EPIPE|ECONNRESET/);
    expect(await userCount()).toBe(before);
  });
});

/** Streams up to `total` bytes of body in 256 KiB writes and stops as soon as the answer arrives. */
function sendUntilAnswered(declared: boolean, total: number): Promise<{ status: number; body: string; sentBytes: number }> {
  const url = new URL(`${API.userImportPreview}?name=big.xlsx`, server.baseUrl);
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, {
      method: 'POST',
      headers: { cookie: admin.cookie, 'content-type': 'application/octet-stream', ...(declared ? { 'content-length': String(total) } : {}) },
    });
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sentBytes: sent }));
    });
    req.on('error', (err) => {
      if (!answered) resolve({ status: 0, body: String(err), sentBytes: sent });
    });
    const piece = Buffer.alloc(256 * 1024, 0x41);
    const pump = () => {
      while (!answered && sent < total) {
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}
