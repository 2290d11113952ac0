import { expect } from 'vitest';
import { API } from '../../common/api/paths';
import type { LinkInfo, LinkOpenResponse, ShareApplication, ShareCreateResponse, SharePermission, SharePolicy, ShareRecipient, SharedListResponse } from '../../common/api/sharing';
import type { LinkCreateRequest } from '../../common/api/endpoints/links';
import { DEFAULT_SHARE_POLICY } from '../../common/api/sharing';
import { API as PATHS } from '../../common/api/paths';
import { addUser, createDepartment, INITIAL_PASSWORD } from './org-kit';
import { Client, liftPasswordGate, loggedInClient, MEMBER, userIdOf, type Answer, type TestServer } from './helpers';

/** Helpers over the real sharing API for the sharing tests. */

export interface Person {
  id: string;
  account: string;
  client: Client;
}

/** Adds a person in a department through the admin API and logs them in (initial password gate lifted). */
export async function person(server: TestServer, admin: Client, account: string, departmentId: string): Promise<Person> {
  const row = await addUser(admin, account, departmentId);
  await liftPasswordGate(server, account);
  return { id: row.id, account, client: await loggedInClient(server, { username: account, password: INITIAL_PASSWORD }) };
}

/** The approval tests' organisation: sales (the demo member, a colleague, their manager) and finance (an outsider). */
export interface ApprovalOrg {
  sales: string;
  member: Person;
  manager: Person;
  colleague: Person;
  outsider: Person;
}

/** Builds ApprovalOrg through the admin API; the new accounts are `<prefix>mgr`, `<prefix>colleague`, `<prefix>outsider`. */
export async function approvalOrg(server: TestServer, admin: Client, prefix = ''): Promise<ApprovalOrg> {
  await liftPasswordGate(server, MEMBER.username);
  const sales = await department(admin, '销售部');
  const finance = await department(admin, '财务部');
  const manager = await person(server, admin, `${prefix}mgr`, sales);
  const colleague = await person(server, admin, `${prefix}colleague`, sales);
  const outsider = await person(server, admin, `${prefix}outsider`, finance);
  const memberId = await userIdOf(server, 'member');
  expect((await admin.post(API.userSetDepartment, { ids: [memberId], departmentId: sales })).status).toBe(200);
  expect((await admin.post(API.departmentUpdate, { id: sales, managerId: manager.id })).status).toBe(200);
  const member = { id: memberId, account: 'member', client: await loggedInClient(server, MEMBER) };
  return { sales, member, manager, colleague, outsider };
}

/**
 * The notice tests' people: sam (shares, applies) and mgr (its manager) in 研发部, carol in 研发部 too or,
 * with `carolBelow`, in its 前端组, and dave in 市场部, whom nothing reaches.
 */
export interface NoticeCast {
  rd: string;
  sam: Person;
  mgr: Person;
  carol: Person;
  dave: Person;
}

export async function noticeCast(server: TestServer, admin: Client, { carolBelow = false } = {}): Promise<NoticeCast> {
  const rd = await department(admin, '研发部');
  const carolIn = carolBelow ? await department(admin, '前端组', rd) : rd;
  const market = await department(admin, '市场部');
  const sam = await person(server, admin, 'sam', rd);
  const mgr = await person(server, admin, 'mgr', rd);
  const carol = await person(server, admin, 'carol', carolIn);
  const dave = await person(server, admin, 'dave', market);
  await setManager(admin, rd, mgr.id);
  return { rd, sam, mgr, carol, dave };
}

export async function department(admin: Client, name: string, parentId: string | null = null, managerId?: string): Promise<string> {
  const d = await createDepartment(admin, name, parentId);
  if (managerId) expect((await admin.post(API.departmentUpdate, { id: d.id, managerId })).status).toBe(200);
  return d.id;
}

export async function setManager(admin: Client, departmentId: string, managerId: string | null): Promise<void> {
  const res = await admin.post(API.departmentUpdate, { id: departmentId, managerId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function share(
  client: Client,
  fileIds: string[],
  recipients: ShareRecipient[],
  permission: SharePermission = 'download',
  validityDays = 0,
): Promise<ShareCreateResponse> {
  const res = await client.post<{ data: ShareCreateResponse }>(API.shareCreate, { fileIds, recipients, permission, validityDays });
  if (res.status !== 200) throw new Error(`share: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function sharedList(client: Client, parentId: string | null = null, extra: Record<string, unknown> = {}): Promise<SharedListResponse> {
  const res = await client.post<{ data: SharedListResponse }>(API.shareFileList, { parentId, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export async function link(client: Client, fileId: string, extra: Partial<LinkCreateRequest> = {}): Promise<LinkInfo> {
  const res = await client.post<{ data: LinkInfo }>(API.linkCreate, { fileId, code: '', validityDays: 0, downloadLimit: null, previewOnly: false, ...extra });
  if (res.status !== 200) throw new Error(`link: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Opens a link as a visitor; answers the visit key (fails the test when refused). */
export async function openLink(visitor: Client, token: string, code?: string | null): Promise<Extract<LinkOpenResponse, { needCode: false }>> {
  const res = await visitor.post<{ data: LinkOpenResponse }>(API.linkOpen, { token, ...(code ? { code } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.needCode).toBe(false);
  return res.body.data as Extract<LinkOpenResponse, { needCode: false }>;
}

export async function setPolicy(admin: Client, patch: Omit<Partial<SharePolicy>, 'link'> & { link?: Partial<SharePolicy['link']> }): Promise<void> {
  const policy = { ...DEFAULT_SHARE_POLICY, ...patch, link: { ...DEFAULT_SHARE_POLICY.link, ...(patch.link ?? {}) } };
  const res = await admin.post(PATHS.fileSecurityUpdate, { sharePolicy: policy });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function submit(client: Client, body: Record<string, unknown>): Promise<Answer<{ data: ShareApplication; errorCode?: string }>> {
  return client.post<{ data: ShareApplication; errorCode?: string }>(API.applySubmit, body);
}

/** Downloads through an address the API answered (a link ticket), as a browser would. */
export async function fetchBytes(client: Client, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await client.raw(url, { headers });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** An outsider opens link `l` (with its code) and downloads `fileId` through it once, as the link page does. */
export async function downloadThroughLink(server: TestServer, l: LinkInfo, fileId: string, code?: string): Promise<void> {
  const visitor = new Client(server.baseUrl);
  const visit = await openLink(visitor, l.token, code);
  expect((await visitor.post(API.linkDownload, { visit: visit.visit, ids: [fileId] })).status).toBe(200);
}
