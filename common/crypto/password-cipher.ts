// The modules AES needs, not the whole library: this runs on the login page, where every kB counts.
// crypto-js/aes brings cipher-core, which puts CBC and PKCS#7 on the shared core object.
import AES from 'crypto-js/aes';
import CryptoJS from 'crypto-js/core';
import Utf8 from 'crypto-js/enc-utf8';

const CBC = CryptoJS.mode.CBC;
const Pkcs7 = CryptoJS.pad.Pkcs7;

/**
 * Spec §9: a fixed AES key and IV embedded in the client encrypt passwords before they are sent.
 * This only keeps plain passwords out of proxies' and servers' request logs; the real protection is
 * TLS plus the server's scrypt hash, and the single-use captcha makes a captured login non-replayable.
 * AES-128-CBC, PKCS#7 padding, base64 ciphertext.
 */
const KEY = Utf8.parse('Cl0udDr1ve#K3y!6');
const IV = Utf8.parse('Cl0udDr1ve#Iv!16');

export function encryptPassword(plain: string): string {
  return AES.encrypt(plain, KEY, { iv: IV, mode: CBC, padding: Pkcs7 }).toString();
}

/** Returns the plain text, or null when the input is not a ciphertext of ours. */
export function decryptPassword(cipherBase64: string): string | null {
  try {
    const plain = AES.decrypt(cipherBase64, KEY, { iv: IV, mode: CBC, padding: Pkcs7 }).toString(Utf8);
    return plain.length > 0 ? plain : null;
  } catch {
    return null;
  }
}
