/** The system config (brand name and logo), loaded once at boot by src/app before anything shows. */
import { atom } from 'jotai';
import type { SystemConfig } from '../../common/api/types';

export const systemConfigAtom = atom<SystemConfig>({ logo: '', brandName: '企业云盘' });

export const DEFAULT_LOGO = '/favicon.svg';

export function logoUrl(config: SystemConfig): string {
  return config.logo || DEFAULT_LOGO;
}
