import { DOMParser, type Element } from '@xmldom/xmldom';
import { randomBytes } from 'node:crypto';
import type { DevicePasswordCreated } from '../../common/api/device-passwords';
import { API } from '../../common/api/paths';
import { ADMIN, loggedInClient, MEMBER, startServerAsAdmin, startServerWithMember, type Client, type TestServer } from './helpers';

/**
 * WebDAV over real HTTP for the dav-*.test.ts suites. Authentication is this one call: the headers a
 * WebDAV client of `account` sends — Basic with a 设备密码 made for the account (through the web API, as
 * a user does in 账号安全). Test servers listen on loopback, so plain HTTP is allowed.
 */
export async function davAuth(server: TestServer, account?: { username: string; password: string }): Promise<Record<string, string>> {
  const client = await loggedInClient(server, account);
  const created = await client.post<{ data: DevicePasswordCreated }>(API.devicePasswordCreate, { name: `dav-test-${randomBytes(6).toString('hex')}` });
  if (created.status !== 200) throw new Error(`device password not created: ${JSON.stringify(created.body)}`);
  return basicAuth(account?.username ?? ADMIN.username, created.body.data.password);
}

/** `Authorization: Basic` of a user name and password, UTF-8 (as the challenge asks). */
export function basicAuth(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` };
}

export interface DavAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** A WebDAV client of one account: `dav.request('PROPFIND', '/dav/个人文件/', { headers, body })`. */
export class DavClient {
  constructor(
    readonly baseUrl: string,
    readonly auth: Record<string, string>,
  ) {}

  static async of(server: TestServer, account?: { username: string; password: string }): Promise<DavClient> {
    return new DavClient(server.baseUrl, await davAuth(server, account));
  }

  async raw(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit; duplex?: 'half' } = {}): Promise<Response> {
    return fetch(this.baseUrl + encodePath(path), { method, ...init, headers: { ...this.auth, ...init.headers } } as RequestInit);
  }

  async request(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}): Promise<DavAnswer> {
    const res = await this.raw(method, path, init);
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  propfind(path: string, depth: '0' | '1' | 'infinity' | null = '1', body = ''): Promise<DavAnswer> {
    const headers: Record<string, string> = body ? { 'content-type': 'application/xml; charset=utf-8' } : {};
    if (depth !== null) headers.depth = depth;
    return this.request('PROPFIND', path, { headers, body: body || undefined });
  }

  put(path: string, body: BodyInit | Buffer, headers: Record<string, string> = {}): Promise<DavAnswer> {
    return this.request('PUT', path, { headers, body: Buffer.isBuffer(body) ? new Uint8Array(body) : body });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<DavAnswer> {
    return this.request('GET', path, { headers });
  }
}

/** A test server, its admin's web client and the admin's WebDAV client. */
export interface DavStart {
  server: TestServer;
  admin: Client;
  dav: DavClient;
}

/** …and the tenant's member (initial-password gate lifted), on the web and over WebDAV. */
export interface DavStartWithMember extends DavStart {
  member: Client;
  memberDav: DavClient;
}

/**
 * The start of every dav-*.test.ts: a server on a real DB, its admin logged in on the web and
 * holding a device password (`dav`); `{ withMember: true }` adds the member (MEMBER) likewise.
 */
export async function startDav(options?: { withMember?: false }): Promise<DavStart>;
export async function startDav(options: { withMember: true }): Promise<DavStartWithMember>;
export async function startDav(options: { withMember?: boolean } = {}): Promise<DavStart | DavStartWithMember> {
  if (options.withMember) {
    const { server, admin, member } = await startServerWithMember();
    return { server, admin, member, dav: await DavClient.of(server), memberDav: await DavClient.of(server, MEMBER) };
  }
  const { server, admin } = await startServerAsAdmin();
  return { server, admin, dav: await DavClient.of(server) };
}

/** Percent-encodes each segment of a readable path (keeps '/'). */
export function encodePath(path: string): string {
  return path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}

export interface DavResponse {
  href: string;
  /** Decoded path. */
  path: string;
  /** DAV: property local names → text (200 propstats only). */
  props: Record<string, string>;
  /** Local names of properties answered 404. */
  missing: string[];
  isCollection: boolean;
}

/** Parses a 207 multistatus. */
export function parseMultistatus(xml: string): DavResponse[] {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const out: DavResponse[] = [];
  const responses = doc.getElementsByTagNameNS('DAV:', 'response');
  for (let i = 0; i < responses.length; i++) {
    const r = responses[i]!;
    const href = r.getElementsByTagNameNS('DAV:', 'href')[0]?.textContent ?? '';
    const props: Record<string, string> = {};
    const missing: string[] = [];
    let isCollection = false;
    const stats = r.getElementsByTagNameNS('DAV:', 'propstat');
    for (let j = 0; j < stats.length; j++) {
      const st = stats[j]!;
      const status = st.getElementsByTagNameNS('DAV:', 'status')[0]?.textContent ?? '';
      const prop = st.getElementsByTagNameNS('DAV:', 'prop')[0];
      for (let n = prop?.firstChild; n; n = n.nextSibling) {
        if (n.nodeType !== 1) continue;
        const el = n as Element;
        if (status.includes(' 200 ')) {
          props[el.localName ?? ''] = el.textContent ?? '';
          if (el.localName === 'resourcetype' && el.getElementsByTagNameNS('DAV:', 'collection').length > 0) isCollection = true;
        } else missing.push(el.localName ?? '');
      }
    }
    out.push({ href, path: decodeURIComponent(href), props, missing, isCollection });
  }
  return out;
}
