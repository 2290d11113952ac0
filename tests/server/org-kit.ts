import { expect } from 'vitest';
import type { UserAddRequest } from '../../common/api/endpoints/user-admin';
import type { DepartmentNode, ImportPreview, OrgTree, UserRow } from '../../common/api/org-types';
import { API } from '../../common/api/paths';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { DEFAULT_QUOTA_CHOICE } from '../../common/org/quota';
import type { Answer, Client } from './helpers';

/** Small helpers over the real organisation API. */
export const INITIAL_PASSWORD = 'Init@2024a';

export async function orgTree(client: Client): Promise<OrgTree> {
  const res = await client.get<{ data: OrgTree }>(API.orgTree);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export async function unassignedId(client: Client): Promise<string> {
  return (await orgTree(client)).departments.find((d) => d.unassigned)!.id;
}

export async function createDepartment(client: Client, name: string, parentId: string | null = null): Promise<DepartmentNode> {
  const res = await client.post<{ data: DepartmentNode }>(API.departmentCreate, { parentId, name });
  if (res.status !== 200) throw new Error(`department ${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export function userBody(website: string, departmentId: string, extra: Partial<UserAddRequest> = {}): UserAddRequest {
  return {
    website,
    nickName: `昵称${website}`,
    phone: '',
    departmentId,
    role: 'member',
    quota: DEFAULT_QUOTA_CHOICE.bytes,
    outerLogin: false,
    password: encryptPassword(INITIAL_PASSWORD),
    ...extra,
  };
}

export async function addUser(client: Client, website: string, departmentId: string, extra: Partial<UserAddRequest> = {}): Promise<UserRow> {
  const res = await client.post<{ data: UserRow }>(API.userAdd, userBody(website, departmentId, extra));
  if (res.status !== 200) throw new Error(`add ${website}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Parent pointers of a tree have no cycle, and every department reaches the top within the tree. */
export function expectAcyclic(departments: DepartmentNode[]): void {
  const byId = new Map(departments.map((d) => [d.id, d]));
  for (const d of departments) {
    const seen = new Set<string>();
    for (let at: DepartmentNode | undefined = d; at; at = at.parentId ? byId.get(at.parentId) : undefined) {
      expect(seen.has(at.id), `cycle through ${d.name}`).toBe(false);
      seen.add(at.id);
      if (at.parentId) expect(byId.has(at.parentId), `${at.name}'s parent exists`).toBe(true);
    }
  }
}

/** Uploads a sheet to the batch preview as the browser does (raw body). */
export async function previewSheet(client: Client, name: string, bytes: Uint8Array | string): Promise<Answer<{ data: ImportPreview; errorCode?: string; errorMessage?: string }>> {
  const res = await client.raw(`${API.userImportPreview}?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: typeof bytes === 'string' ? bytes : new Uint8Array(bytes),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as { data: ImportPreview } };
}
