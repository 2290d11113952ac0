/** Which client and which network build this page is (the headers every call carries). */
import type { ClientPlatform, NetworkEnv } from '../../common/api/client-env';

export function currentPlatform(): ClientPlatform {
  return typeof window !== 'undefined' && window.desktop ? 'desktop' : 'web';
}

export function currentNetworkEnv(): NetworkEnv {
  return import.meta.env.VITE_NETWORK_ENV === 'public' ? 'public' : 'internal';
}
