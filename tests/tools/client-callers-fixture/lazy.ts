import { send } from './send';

/** Loaded with import(): the exports the importer takes count. */
export const logout = (): Promise<unknown> => send('/spacex/logout', {});

/** Exported by the loaded module, but the importer takes only `logout`: not a call. */
export const copyLater = (): Promise<unknown> => send('/api/file/copy', {});
