/** Which client and which network build this page is (the headers every call carries). */
import { CLIENT_TYPE, type ClientPlatform, type NetworkEnv } from '../../common/api/client-env';

export function currentPlatform(): ClientPlatform {
  return typeof window !== 'undefined' && window.desktop ? 'desktop' : 'web';
}

/** Fixed at build time (vite.config.ts `buildDefines`): `npm run build:internal` / `build:public`. */
export function currentNetworkEnv(): NetworkEnv {
  return import.meta.env.VITE_NETWORK_ENV === 'public' ? 'public' : 'internal';
}

/** Spec §1/§9: 3 for the internal build, 4 for the public build (sent when checking for a new version). */
export function currentClientType(): 3 | 4 {
  return CLIENT_TYPE[currentNetworkEnv()];
}

/** The ICP filing number shown by the public build's login pages ('' when the build was not given one). */
export function beianNumber(): string {
  return import.meta.env.VITE_BEIAN_NUMBER ?? '';
}
