import { PhoneOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { useAtomValue } from 'jotai';
import { systemConfigAtom } from '../lib/system-config';

/**
 * The tenant's help line (static data `customerTelephone`, carried by the system config every page
 * has loaded first): where people look for help — the login page, 404, 个人中心. Nothing when the
 * tenant turned it off. On a /login/{alias} page, that tenant's line (getAlias answers it).
 */
export function HelpLine({ style, phone: own }: { style?: CSSProperties; /** Another tenant's line (a /login/{alias} page); undefined: the system config's. */ phone?: string }) {
  const { token } = theme.useToken();
  const config = useAtomValue(systemConfigAtom);
  const phone = (own ?? config.customerTelephone)?.trim();
  if (!phone) return null;
  return (
    <div data-testid="help-line" style={{ color: token.colorTextSecondary, fontSize: 13, textAlign: 'center', ...style }}>
      <PhoneOutlined style={{ marginRight: 6 }} />
      遇到问题？请联系客服 <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
    </div>
  );
}
