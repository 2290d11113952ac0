import { randomBytes } from 'node:crypto';

/** 128-bit random id, base64url (22 characters). Never derived from user input. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

export const ID_PATTERN = '^[A-Za-z0-9_-]{22}$';
