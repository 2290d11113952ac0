import { useAtomValue } from 'jotai';
import type { CSSProperties } from 'react';
import { logoUrl, systemConfigAtom } from '../lib/system-config';

/** Tenant logo + brand name from the system config. */
export function BrandMark({ size = 32, color, style }: { size?: number; color?: string; style?: CSSProperties }) {
  const config = useAtomValue(systemConfigAtom);
  return <BrandMarkView logo={logoUrl(config)} name={config.brandName} size={size} color={color} style={style} />;
}

/** The mark itself, for a logo and a name given (also drawn at build time: src/app/personal-frame.tsx). */
export function BrandMarkView({ logo, name, size = 32, color, style }: { logo: string; name: string; size?: number; color?: string; style?: CSSProperties }) {
  return (
    // A long brand gives way (ellipsis) to the header's buttons instead of running under them.
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 10, maxWidth: '100%', minWidth: 0, ...style }} data-testid="brand" title={name}>
      <img src={logo} alt="" width={size} height={size} style={{ objectFit: 'contain', flexShrink: 0 }} />
      <span style={{ fontSize: size * 0.56, fontWeight: 600, color, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 }}>{name}</span>
    </span>
  );
}
