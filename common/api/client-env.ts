/**
 * Every call carries the platform and network-environment headers (spec §7). Header names and values
 * are ours (the spec does not show them); a customer backend reads the same ones.
 */
export const HEADER_PLATFORM = 'X-Client-Platform';
export const HEADER_NETWORK_ENV = 'X-Network-Env';
/**
 * Ours: a client operation id (16-64 of [A-Za-z0-9_-]) on the file-metadata writes the offline outbox
 * replays (mkdir, rename, copy, move, removeFiles, favorite add/remove, createTxt, keepOnCreateTxt).
 * The server applies an id once per user and answers a repeat with the first answer.
 */
export const HEADER_CLIENT_OP_ID = 'X-Client-Op-Id';
/** Set ('1') on an answer that is the kept answer of an earlier request with the same op id. */
export const HEADER_CLIENT_OP_REPLAYED = 'X-Client-Op-Replayed';

export type ClientPlatform = 'web' | 'desktop';
export type NetworkEnv = 'internal' | 'public';

/** Spec §1/§9: client type 3 for the internal build, 4 for the public build. */
export const CLIENT_TYPE: Record<NetworkEnv, 3 | 4> = { internal: 3, public: 4 };

export function clientHeaders(platform: ClientPlatform, networkEnv: NetworkEnv): Record<string, string> {
  return { [HEADER_PLATFORM]: platform, [HEADER_NETWORK_ENV]: networkEnv };
}

/** The environment variable naming the network build (`npm start`, `npm run build`, the desktop shell). */
export const NETWORK_ENV_VARIABLE = 'NETWORK_ENV';

/**
 * Which network build to make: a Vite mode of 'internal' or 'public' (`npm run build:internal` /
 * `build:public`) decides; otherwise the NETWORK_ENV variable; unset means internal. Any other value
 * is refused, so a typo cannot silently ship the wrong build.
 */
export function resolveNetworkEnv(mode: string | undefined, envValue: string | undefined): NetworkEnv {
  if (mode === 'internal' || mode === 'public') return mode;
  if (envValue === undefined || envValue === '' || envValue === 'internal') return 'internal';
  if (envValue === 'public') return 'public';
  throw new Error(`${NETWORK_ENV_VARIABLE} must be 'internal' or 'public', not '${envValue}'`);
}
