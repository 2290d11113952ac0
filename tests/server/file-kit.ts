import { expect } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse, FileEntry, FileListResponse, SpaceInfo } from '../../common/api/types';
import { uploadFile, withDb, type Answer, type Client, type TestServer } from './helpers';

/** Small helpers over the real API for the file-operation tests. */
export async function mkdir(client: Client, name: string, parentId: string | null = null, extra: Record<string, unknown> = {}): Promise<FileEntry> {
  const res = await client.post<{ data: FileEntry }>(API.mkdir, { parentId, category: 1, name, ...extra });
  if (res.status !== 200) throw new Error(`mkdir ${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Creates a text file through createTxt; fails the test when it is held. */
export async function text(client: Client, name: string, content: string, parentId: string | null = null, extra: Record<string, unknown> = {}): Promise<FileEntry> {
  const res = await client.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId, category: 1, name, content, ...extra });
  if (res.status !== 200 || res.body.data.status !== 'created') throw new Error(`createTxt ${name}: ${JSON.stringify(res.body)}`);
  return res.body.data.file;
}

export async function names(client: Client, parentId: string | null, extra: Record<string, unknown> = {}): Promise<string[]> {
  const res = await client.post<{ data: FileListResponse }>(API.fileList, { parentId, category: 1, pageSize: 500, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.items.map((i) => i.name);
}

export async function entries(client: Client, parentId: string | null, extra: Record<string, unknown> = {}): Promise<FileEntry[]> {
  const res = await client.post<{ data: FileListResponse }>(API.fileList, { parentId, category: 1, pageSize: 500, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.items;
}

export async function download(client: Client, id: string): Promise<string> {
  const res = await client.raw(API.downloadPrefix + id);
  expect(res.status).toBe(200);
  return res.text();
}

export async function createGroup(client: Client, name: string): Promise<SpaceInfo> {
  const res = await client.post<{ data: SpaceInfo }>(API.groupCreate, { name });
  if (res.status !== 200) throw new Error(`group ${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export function expectError(res: Answer, code: string, status = 400): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ errorCode: code });
}

/** The admin's tenant's blocked list set straight in the database (null: the defaults). */
export async function setBlockedList(server: TestServer, list: string[] | null): Promise<void> {
  const tenantId = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
  const json = list === null ? null : JSON.stringify(list);
  await withDb(server, (db) =>
    db.prepare(`insert into tenant_settings (tenant_id, blocked_extensions, sensitive_keywords) values (?, ?, null)
      on conflict (tenant_id) do update set blocked_extensions = excluded.blocked_extensions`).run(tenantId, json),
  );
}

/** Content stored as before the content rule existed: uploaded by the admin while the tenant blocked nothing. */
export async function storeWhileNothingBlocked(server: TestServer, admin: Client, bytes: Buffer, name: string): Promise<FileEntry> {
  await setBlockedList(server, []);
  try {
    const res = await uploadFile(admin, bytes, name);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  } finally {
    await setBlockedList(server, null);
  }
}
