import { FILES } from '../../../common/api/endpoints/files';
import { DOMAINS } from '../../../common/api/endpoints';
import { API } from '../../../common/api/paths';
import { send } from './send';
import type { InputOf } from '../../../common/api/endpoint';

/** Called from the entry: lists a folder (a declaration), asks the menu (a path constant), renames (a chain from DOMAINS). */
export function start(): void {
  void send(FILES.list.path, {});
  void send(API.menu, {});
  void send(DOMAINS.files.rename.path, {});
  void import('./lazy').then((m) => m.logout());
}

/** Exported, never imported: not a call. */
export const neverCalled = (): Promise<unknown> => send(FILES.mkdir.path, {});

// A comment naming FILES.removeFiles or '/api/file/copy' is not a call; nor is a type:
export type RemoveInput = InputOf<typeof FILES.removeFiles>;
