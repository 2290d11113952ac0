import { send } from './send';

/** Loaded with import(): its exports count. */
export const logout = (): Promise<unknown> => send('/spacex/logout', {});
