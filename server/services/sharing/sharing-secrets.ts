import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The secrets of sharing, derived (HKDF-SHA-256, own labels) from the server's key kept outside the
 * database (the action log's chain key: AUDIT_CHAIN_KEY or DATA_DIR/audit-chain.key), so a copy of
 * the database alone neither opens sealed link tokens and codes nor forges visit keys, confirmations
 * or tickets.
 */
export class SharingSecrets {
  private readonly sealKey: Buffer;
  private readonly macKey: Buffer;

  constructor(rootKey: Buffer) {
    this.sealKey = Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), 'drive sharing seal v1', 32));
    this.macKey = Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), 'drive sharing mac v1', 32));
  }

  /** A link token: 192 random bits, base64url (32 characters; ids are 22, so a token is never an id). */
  static newToken(): string {
    return randomBytes(24).toString('base64url');
  }

  static hash(value: string): string {
    return createHash('sha256').update(value, 'utf8').digest('hex');
  }

  /** AES-256-GCM: base64url of iv (12) ‖ ciphertext ‖ tag (16). */
  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  }

  mac(...parts: string[]): string {
    return createHmac('sha256', this.macKey).update(parts.join('\n'), 'utf8').digest('base64url');
  }

  /** A signed value: the parts joined with '.', then the MAC of them. Parts must not contain '.'. */
  sign(parts: string[]): string {
    return Buffer.from([...parts, this.mac(...parts)].join('.'), 'utf8').toString('base64url');
  }

  /** The parts of a signed value, or null when it is forged, damaged, or not one of ours. */
  verify(signed: string, count: number): string[] | null {
    let text: string;
    try {
      text = Buffer.from(signed, 'base64url').toString('utf8');
    } catch {
      return null;
    }
    const all = text.split('.');
    if (all.length !== count + 1) return null;
    const parts = all.slice(0, count);
    const given = Buffer.from(all[count]!, 'utf8');
    const expected = Buffer.from(this.mac(...parts), 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected) ? parts : null;
  }
}

/** Compares two short secrets in constant time (case-insensitively: extraction codes). */
export function sameCode(a: string, b: string): boolean {
  const x = createHash('sha256').update(a.toLowerCase()).digest();
  const y = createHash('sha256').update(b.toLowerCase()).digest();
  return timingSafeEqual(x, y);
}
