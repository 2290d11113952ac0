import { useAtomValue } from 'jotai';
import type { CSSProperties } from 'react';
import { logoUrl, systemConfigAtom } from '../lib/system-config';

/** Tenant logo + brand name from the system config. */
export function BrandMark({ size = 32, color, style }: { size?: number; color?: string; style?: CSSProperties }) {
  const config = useAtomValue(systemConfigAtom);
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 10, ...style }} data-testid="brand">
      <img src={logoUrl(config)} alt="" width={size} height={size} style={{ objectFit: 'contain' }} />
      <span style={{ fontSize: size * 0.56, fontWeight: 600, color, whiteSpace: 'nowrap' }}>{config.brandName}</span>
    </span>
  );
}
