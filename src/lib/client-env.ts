/** Which client and which network build this page is (the headers every call carries). */
import type { ClientPlatform, NetworkEnv } from '../../common/api/client-env';

export function currentPlatform(): ClientPlatform {
  return typeof window !== 'undefined' && window.desktop ? 'desktop' : 'web';
}

/** Fixed at build time (vite.config.ts `buildDefines`): `npm run build:internal` / `build:public`. */
export function currentNetworkEnv(): NetworkEnv {
  return import.meta.env.VITE_NETWORK_ENV === 'public' ? 'public' : 'internal';
}

/** The ICP filing number shown by the public build's login pages ('' when the build was not given one). */
export function beianNumber(): string {
  return import.meta.env.VITE_BEIAN_NUMBER ?? '';
}
