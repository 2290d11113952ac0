import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DETAIL_LABELS, detailRows } from '../../../src/features/action-log/detail-labels';

/** Every .ts file under server/. */
function serverFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? serverFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The keys a source writes into a record's detail: `detail: { a, b: … }`, `detail.c = …`, `Object.assign(detail, { d })`. */
function detailKeys(source: string): string[] {
  const keys: string[] = [];
  const objectKeys = (body: string) => {
    // Only the object's own level: nested literals (a filter's fields) are labelled where they are read.
    let depth = 0;
    let flat = '';
    for (const c of body) {
      if (c === '{' || c === '(' || c === '[') depth++;
      else if (c === '}' || c === ')' || c === ']') depth--;
      else if (depth === 0) flat += c;
    }
    for (const part of flat.split(',')) {
      const m = /^\s*(?:\.\.\.)?([A-Za-z_]\w*)\s*(?::|$)/.exec(part);
      if (m && !part.trim().startsWith('...')) keys.push(m[1]!);
    }
  };
  for (const m of source.matchAll(/\bdetail:\s*\{([^}]*)\}/g)) objectKeys(m[1]!);
  for (const m of source.matchAll(/Object\.assign\((?:\w+\.)?detail,\s*\{([^}]*)\}/g)) objectKeys(m[1]!);
  for (const m of source.matchAll(/\bdetail\s*=\s*\{([^}]*)\}/g)) objectKeys(m[1]!);
  for (const m of source.matchAll(/appendSystem\([^;]*?,\s*\{([^}]*)\}/g)) objectKeys(m[1]!);
  for (const m of source.matchAll(/\bdetail\.(\w+)\s*=[^=]/g)) keys.push(m[1]!);
  return keys;
}

describe("the action log's 详情 in Chinese (issue 44)", () => {
  it('labels every key the server writes into a record', () => {
    const root = path.join(__dirname, '../../../server');
    const missing = new Set<string>();
    for (const file of serverFiles(root)) for (const key of detailKeys(readFileSync(file, 'utf8'))) if (!Object.hasOwn(DETAIL_LABELS, key)) missing.add(`${key} (${path.relative(root, file)})`);
    expect([...missing]).toEqual([]);
  });

  it('shows names for ids it knows, Chinese for coded values, and an unknown key as it is', () => {
    const names: Record<string, string> = { 'dept-1': '研发部/前端组', 'user-9': '王五' };
    const rows = detailRows({ parentId: 'dept-1', managerId: 'user-9', approverId: 'user-unknown', publish: true, kind: 'link', size: 2048, role: 'admin', futureKey: 'x' }, (id) => names[id] ?? null);
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['上级 / 所在文件夹', '研发部/前端组'],
      ['负责人', '王五'],
      ['审批人', 'user-unknown'],
      ['发布', '是'],
      ['类型', '外链分享'],
      ['大小', '2.00 KB'],
      ['角色', '管理员'],
      ['futureKey', 'x'],
    ]);
  });

  it('reads a client release and a home page change in words (客户端版本, 首页)', () => {
    const names: Record<string, string> = { 'file-2': 'drive-setup-2.5.0.AppImage' };
    const release = detailRows(
      { clientType: 4, from: { versionName: '2.4.0', isForce: false, fileId: 'file-1', installer: 'drive-setup-2.4.0.AppImage' }, to: { versionName: '2.5.0', versionDesc: '修复同步冲突', isForce: true, fileId: 'file-2', installer: 'drive-setup-2.5.0.AppImage' } },
      (id) => names[id] ?? null,
    );
    expect(release.map((r) => [r.label, r.value])).toEqual([
      ['客户端类型', '外网客户端（4）'],
      ['原值', '版本名称：2.4.0；强制更新：否；文件：file-1；安装包：drive-setup-2.4.0.AppImage'],
      ['新值', '版本名称：2.5.0；版本说明：修复同步冲突；强制更新：是；文件：drive-setup-2.5.0.AppImage；安装包：drive-setup-2.5.0.AppImage'],
    ]);
    expect(detailRows({ homeUrl: { from: '/main/file/personal', to: '/main/group' } }, () => null).map((r) => [r.label, r.value])).toEqual([['首页', '原值：个人文件；新值：群组空间']]);
  });
});
