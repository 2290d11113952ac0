/** Account calls shared by the login, password and user-centre pages. */
import { AUTH, type SmsSendQuery } from '../../common/api/endpoints/auth';
import { ACCOUNT, type PhoneValidateRequest, type ProfileUpdateRequest, type UserInfoModifyRequest } from '../../common/api/endpoints/account';
import { USER_INFO_TYPE, type SmsSendResult, type UserDetails } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { api } from './api';

export function fetchUserDetails(): Promise<UserDetails> {
  return api.call(ACCOUNT.userDetails);
}

/**
 * Spec §7: `{value, type: 4, oldPassword}`, both passwords AES-encrypted (§9). The server ends every
 * session of the user on success, so the caller logs out and goes to /login.
 */
export function changePassword(oldPassword: string, newPassword: string, quietCodes: readonly string[] = []): Promise<unknown> {
  const body: UserInfoModifyRequest = {
    value: encryptPassword(newPassword),
    type: USER_INFO_TYPE.password,
    oldPassword: encryptPassword(oldPassword),
  };
  return api.call(ACCOUNT.userInfoModify, body, { quietCodes });
}

/** Sends a 6-digit SMS code; the image captcha answer is required (and used up) by the server. */
export function sendSmsCode(query: SmsSendQuery): Promise<SmsSendResult> {
  return api.call(AUTH.smsSend, query);
}

/** Binds the phone to the caller with the code sent for purpose bindPhone. */
export function validatePhone(request: PhoneValidateRequest): Promise<unknown> {
  return api.call(ACCOUNT.phoneValidate, request);
}

/** 基本信息: the caller's nickname and/or avatar (base64); answers the updated details. */
export function updateProfile(request: ProfileUpdateRequest, quietCodes: readonly string[] = []): Promise<UserDetails> {
  return api.call(ACCOUNT.profileUpdate, request, { quietCodes });
}
