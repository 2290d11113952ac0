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
 * Spec §7: `{value, type: 4, oldPassword}`, both passwords AES-encrypted (§9). On success the server
 * ends every session of the user and sets a new one for this device (the cookie): the user goes on.
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

/**
 * Binds (or replaces) the caller's phone with the code sent for purpose bindPhone; `password` is the
 * plain login password (encrypted here), `oldCode` the verifyPhone code of the phone bound now.
 */
export function validatePhone(request: PhoneValidateRequest, quietCodes: readonly string[] = []): Promise<unknown> {
  return api.call(ACCOUNT.phoneValidate, { ...request, password: encryptPassword(request.password) }, { quietCodes });
}

/** 退出 one of the caller's other devices. */
export function endSignedInDevice(id: string): Promise<unknown> {
  return api.call(ACCOUNT.sessionEnd, { id });
}

/** 退出其他设备: every session of the caller's but this one. */
export function endOtherDevices(): Promise<{ ended: number }> {
  return api.call(ACCOUNT.sessionEndOthers);
}

/** 基本信息: the caller's nickname and/or avatar (base64); answers the updated details. */
export function updateProfile(request: ProfileUpdateRequest, quietCodes: readonly string[] = []): Promise<UserDetails> {
  return api.call(ACCOUNT.profileUpdate, request, { quietCodes });
}
