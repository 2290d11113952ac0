/**
 * Every call carries the platform and network-environment headers (spec §7). Header names and values
 * are ours (the spec does not show them); a customer backend reads the same ones.
 */
export const HEADER_PLATFORM = 'X-Client-Platform';
export const HEADER_NETWORK_ENV = 'X-Network-Env';

export type ClientPlatform = 'web' | 'desktop';
export type NetworkEnv = 'internal' | 'public';

/** Spec §1/§9: client type 3 for the internal build, 4 for the public build. */
export const CLIENT_TYPE: Record<NetworkEnv, 3 | 4> = { internal: 3, public: 4 };

export function clientHeaders(platform: ClientPlatform, networkEnv: NetworkEnv): Record<string, string> {
  return { [HEADER_PLATFORM]: platform, [HEADER_NETWORK_ENV]: networkEnv };
}
