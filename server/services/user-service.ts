import { ERRORS } from '../../common/api/errors';
import type { UserDetails } from '../../common/api/types';
import { AppError } from '../http/app-error';
import type { UserRepository } from '../repositories/user-repository';
import type { Caller } from './caller';

export class UserService {
  constructor(
    private readonly users: UserRepository,
    /** Spec §3: the avatar is prefixed with the base URL. */
    private readonly publicBaseUrl: string,
    /** The SMS gateway really delivers (UserDetails.smsDelivery). */
    private readonly smsDelivery = false,
  ) {}

  async details(caller: Caller): Promise<UserDetails> {
    const u = await this.users.findById(caller.userId);
    if (!u) throw new AppError(ERRORS.UNAUTHORIZED);
    return {
      avatar: u.avatar ? this.publicBaseUrl + u.avatar : '',
      id: u.id,
      tenantId: u.tenant_id,
      nickName: u.nick_name,
      phone: u.phone,
      quota: u.quota,
      usedSize: u.used_size,
      website: u.username,
      role: u.role,
      passwordChangeType: caller.passwordChangeType,
      agreementRead: u.agreement_read_at != null,
      outerLogin: u.outer_login === 1,
      smsDelivery: this.smsDelivery,
    };
  }
}
