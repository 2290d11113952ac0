import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { ProfileUpdateRequest } from '../../common/api/endpoints/account';
import { nicknameProblem } from '../../common/org/account';
import { AppError } from '../http/app-error';
import type { UserRepository } from '../repositories/user-repository';
import type { BlobStore } from '../storage/byte-store';
import { actionLog } from './action-log/recorder';
import type { Caller } from './caller';
import { reencodeTenantPicture } from './tenant-images';

const AVATAR_KEY = /^[A-Za-z0-9_-]{1,128}$/;
const AVATAR_TOO_LARGE = '头像图片不能超过 2MB';

/**
 * 基本信息: a user's own nickname and avatar. The avatar is re-encoded like a tenant picture (its
 * pixels only, 256 px WebP) and stored as a blob; users.avatar holds its path under
 * API.userAvatarPrefix, which serves it to the users of the same tenant only.
 */
export class UserProfileService {
  constructor(
    private readonly users: UserRepository,
    private readonly blobs: BlobStore,
  ) {}

  async update(caller: Caller, req: ProfileUpdateRequest): Promise<void> {
    const user = await this.users.findById(caller.userId);
    if (!user) throw new AppError(ERRORS.UNAUTHORIZED);
    const detail: Record<string, unknown> = {};
    actionLog.record({ action: 'account.profileUpdate', detail });
    const patch: { nick_name?: string; avatar?: string } = {};
    if (req.nickName !== undefined) {
      const broken = nicknameProblem(req.nickName);
      if (broken) throw new AppError(ERRORS.NICKNAME_INVALID, broken);
      patch.nick_name = req.nickName.trim();
      detail.nickName = { from: user.nick_name, to: patch.nick_name };
    }
    if (req.avatar !== undefined) {
      const picture = await reencodeTenantPicture(req.avatar, 'avatar').catch((err: unknown) => {
        if (err instanceof AppError && err.code === ERRORS.TENANT_IMAGE_TOO_LARGE.code) throw new AppError(ERRORS.TENANT_IMAGE_TOO_LARGE, AVATAR_TOO_LARGE);
        throw err;
      });
      patch.avatar = API.userAvatarPrefix + (await this.store(picture));
      detail.avatar = { bytes: picture.length };
    }
    if (Object.keys(patch).length === 0) return;
    try {
      await this.users.update(user.id, patch);
    } catch (err) {
      if (patch.avatar) await this.blobs.remove(patch.avatar.slice(API.userAvatarPrefix.length));
      throw err;
    }
    if (patch.avatar && user.avatar.startsWith(API.userAvatarPrefix)) await this.blobs.remove(user.avatar.slice(API.userAvatarPrefix.length));
  }

  /** An avatar of a user of the caller's tenant; another tenant's, or an unknown key, is not found. */
  async avatar(caller: Caller, key: string): Promise<Readable> {
    if (!AVATAR_KEY.test(key) || !(await this.users.avatarInTenant(caller.tenantId, API.userAvatarPrefix + key))) throw new AppError(ERRORS.NOT_FOUND);
    return this.blobs.openRead(key);
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
