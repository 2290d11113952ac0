import type { Transaction } from 'kysely';
import { spaceMayModify } from '../../common/files/space-roles';
import type { Database, FilesTable } from '../db/schema';
import { newId } from '../ids';
import { audienceOf, grantsOn } from './share-grants';

type Tx = Transaction<Database>;

/**
 * Who gives a file new content. Taken from the session (services build it from the Caller), never
 * from a request body.
 */
export interface ContentEditor {
  tenantId: string;
  userId: string;
  isAdmin: boolean;
  /** The network build the editor works from: an exchange-area file remembers where it came in (sharing.ts). */
  side?: 'internal' | 'public';
}

/** Why an overwrite was refused: the services map each to the code a rename would get. */
export type ReplaceRefusal = 'forbidden' | 'locked' | 'gone';

/** Builds the editor from a session's caller. */
export const editorOf = (caller: { tenantId: string; userId: string; role: string; networkEnv?: 'internal' | 'public' }): ContentEditor => ({
  tenantId: caller.tenantId,
  userId: caller.userId,
  isAdmin: caller.role === 'admin',
  side: caller.networkEnv,
});

export class ContentReplaceRefused extends Error {
  constructor(readonly reason: ReplaceRefusal) {
    super(reason);
  }
}

/**
 * THE one place where an existing file gets new content and its old content becomes a version:
 * chunk merge and second upload with 'newVersion', createTxt's held decision, copy and move with
 * 'overwrite', restore from the recycle bin with 'overwrite', and restoring an old version all end
 * here. The space-role rule of common/files/space-roles.ts (the one rename, delete and lock obey)
 * and the lock are checked on the row as read inside the caller's transaction, so no path can
 * skip them and no concurrent change slips in between check and write.
 *
 * Quota is the caller's business (uploads charge in their commit, tree writes before calling).
 */
export async function replaceContent(
  tx: Tx,
  editor: ContentEditor,
  fileId: string,
  content: { blobId: string; size: number },
  now: number,
): Promise<FilesTable> {
  const file = await tx.selectFrom('files').selectAll().where('id', '=', fileId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!file || file.tenant_id !== editor.tenantId || file.is_dir === 1 || !file.blob_id) throw new ContentReplaceRefused('gone');
  if (!(await mayModify(tx, editor, file))) throw new ContentReplaceRefused('forbidden');
  if (file.locked_by && file.locked_by !== editor.userId) throw new ContentReplaceRefused('locked');

  const last = await tx.selectFrom('file_versions').select((eb) => eb.fn.max('version_no').as('n')).where('file_id', '=', file.id).executeTakeFirst();
  await tx
    .insertInto('file_versions')
    .values({
      id: newId(),
      file_id: file.id,
      tenant_id: file.tenant_id,
      blob_id: file.blob_id,
      size: file.size,
      version_no: Number(last?.n ?? 0) + 1,
      created_at: now,
      created_by: editor.userId,
    })
    .execute();
  await tx.updateTable('files').set({ blob_id: content.blobId, size: content.size, updated_at: now }).where('id', '=', file.id).execute();
  return { ...file, blob_id: content.blobId, size: content.size, updated_at: now };
}

/**
 * The rule AccessService.assertMayModify applies, evaluated from the database: personal files only
 * by their owner; in a space by role (members and public-space users: their own entries only);
 * never the space's root folder. A group the editor does not belong to is out of reach unless
 * they are a tenant admin.
 */
async function mayModify(tx: Tx, editor: ContentEditor, file: FilesTable): Promise<boolean> {
  if (await mayModifyByRole(tx, editor, file)) return true;
  // Someone the entry is shared with, permission edit (common/api/sharing.ts), checked in this transaction.
  const audience = await audienceOf(tx, editor.tenantId, editor.userId);
  return (await grantsOn(tx, audience, [file.id], Date.now())).get(file.id)?.permission === 'edit';
}

async function mayModifyByRole(tx: Tx, editor: ContentEditor, file: FilesTable): Promise<boolean> {
  if (!file.space_id) return file.owner_id === editor.userId;
  const space = await tx
    .selectFrom('spaces')
    .select(['kind', 'root_id', 'tenant_id'])
    .where('id', '=', file.space_id)
    .executeTakeFirst();
  if (!space || space.tenant_id !== file.tenant_id || space.root_id === file.id) return false;
  if (space.kind === 'public') return spaceMayModify(null, editor.userId, file.owner_id, editor.isAdmin);
  const member = await tx
    .selectFrom('space_members')
    .select('role')
    .where('space_id', '=', file.space_id)
    .where('user_id', '=', editor.userId)
    .executeTakeFirst();
  if (!member) return editor.isAdmin;
  return spaceMayModify(member.role, editor.userId, file.owner_id, editor.isAdmin);
}
