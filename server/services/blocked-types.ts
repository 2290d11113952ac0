import { ERRORS } from '../../common/api/errors';
import { blockedContentFamily } from '../../common/files/content-signatures';
import { DEFAULT_BLOCKED_EXTENSIONS } from '../../common/transfer/checks';
import { AppError } from '../http/app-error';
import type { CheckRepository } from '../repositories/check-repository';
import { extensionOf } from '../../common/files/extension';

/** The one rule for a name's extension, shared with the transfer engine's local type check. */
export { extensionOf } from '../../common/files/extension';

/**
 * The file types a tenant refuses, judged on the stored form of the name (validName: NFC, no
 * invisible characters, no trailing dot — so `x.exe.` and `x.exe` + U+200B never get here as
 * something else) and, where the bytes are at hand, by their first bytes
 * (common/files/content-signatures.ts). Every way a file gets a name or content asks here: upload
 * checks, the first chunk, merge, second upload, batch upload, createTxt, rename (the name only).
 */
export class BlockedTypes {
  constructor(private readonly repo: CheckRepository) {}

  async blockedExtensions(tenantId: string): Promise<string[]> {
    const s = await this.repo.tenantSettings(tenantId);
    return (s.blockedExtensions ?? [...DEFAULT_BLOCKED_EXTENSIONS]).map((e) => e.toLowerCase());
  }

  async isBlockedName(tenantId: string, name: string): Promise<boolean> {
    const extension = extensionOf(name);
    return extension !== '' && (await this.blockedExtensions(tenantId)).includes(extension);
  }

  async assertAllowedType(tenantId: string, name: string): Promise<void> {
    if (await this.isBlockedName(tenantId, name)) throw new AppError(ERRORS.FILE_TYPE_BLOCKED);
  }

  /** The name (FILE_TYPE_BLOCKED), then the content's first bytes (assertAllowedBytes). */
  async assertAllowedContent(tenantId: string, name: string, head: Uint8Array): Promise<void> {
    const blocked = await this.blockedExtensions(tenantId);
    const extension = extensionOf(name);
    if (extension !== '' && blocked.includes(extension)) throw new AppError(ERRORS.FILE_TYPE_BLOCKED);
    if (head.length > 0 && blockedContentFamily(head, blocked)) throw new AppError(ERRORS.FILE_CONTENT_BLOCKED);
  }

  /**
   * A program or script by its first bytes (`head`, CONTENT_HEAD_BYTES of them suffice) where the
   * tenant blocks executables: FILE_CONTENT_BLOCKED, whatever the name. The verdict does not depend on
   * the name, so a rename never needs the bytes again: the name rule alone decides a rename.
   */
  async assertAllowedBytes(tenantId: string, head: Uint8Array): Promise<void> {
    if (head.length > 0 && blockedContentFamily(head, await this.blockedExtensions(tenantId))) throw new AppError(ERRORS.FILE_CONTENT_BLOCKED);
  }
}
