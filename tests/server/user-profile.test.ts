import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { UserDetails } from '../../common/api/types';
import { addTenantWithUser, Client, loggedInClient, startServerWithMember, type TestServer } from './helpers';

/** 基本信息: nickname and avatar of one's own account, against the real server and its blob store. */
let server: TestServer;
let admin: Client;
let member: Client;
let stranger: Client;
beforeAll(async () => {
  ({ server, admin, member } = await startServerWithMember());
  await addTenantWithUser(server, 'stranger', 'Stranger@2024');
  stranger = await loggedInClient(server, { username: 'stranger', password: 'Stranger@2024' });
});
afterAll(async () => {
  await server.close();
});

const update = (client: Client, body: unknown) => client.post<{ data: UserDetails; errorCode?: string; errorMessage?: string }>(API.userProfileUpdate, body);
const details = async (client: Client) => (await client.post<{ data: UserDetails }>(API.userDetails)).body.data;

describe('基本信息: nickname and avatar', () => {
  it('changes the nickname (trimmed) and refuses an empty or invisible one with the rule broken', async () => {
    const ok = await update(member, { nickName: '  新昵称  ' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.nickName).toBe('新昵称');
    expect((await details(member)).nickName).toBe('新昵称');
    expect((await update(member, { nickName: '   ' })).body).toEqual({ errorCode: ERRORS.NICKNAME_INVALID.code, errorMessage: '请输入昵称' });
    expect((await update(member, { nickName: 'a\u200bb' })).body).toMatchObject({ errorCode: ERRORS.NICKNAME_INVALID.code });
    expect((await details(member)).nickName).toBe('新昵称');
  });

  it('keeps an avatar as a 256 px WebP shown to the users of the tenant only; a new one replaces it', async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
    const ok = await update(member, { avatar: `data:image/png;base64,${png.toString('base64')}` });
    expect(ok.status).toBe(200);
    const url = ok.body.data.avatar;
    expect(url.startsWith(API.userAvatarPrefix)).toBe(true);

    const seen = await admin.raw(url);
    expect(seen.status).toBe(200);
    expect(seen.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await seen.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 192]);

    expect((await stranger.raw(url)).status).toBe(404);
    expect((await new Client(server.baseUrl).raw(url)).status).toBe(401);

    const again = await update(member, { avatar: png.toString('base64') });
    expect(again.body.data.avatar).not.toBe(url);
    expect((await admin.raw(url)).status).toBe(404);
    expect((await admin.raw(again.body.data.avatar)).status).toBe(200);
  });

  it('refuses what is not a picture, or one over 2 MB, and changes nothing', async () => {
    const before = (await details(member)).avatar;
    expect((await update(member, { avatar: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64') })).body).toMatchObject({ errorCode: ERRORS.TENANT_IMAGE_INVALID.code });
    const big = Buffer.alloc(2 * 1024 * 1024 + 10, 1).toString('base64');
    expect((await update(member, { avatar: big })).body).toEqual({ errorCode: ERRORS.TENANT_IMAGE_TOO_LARGE.code, errorMessage: '头像图片不能超过 2MB' });
    expect((await details(member)).avatar).toBe(before);
  });
});
