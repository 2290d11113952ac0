import { useLocation } from 'wouter';
import type { NetworkEnv } from '../../common/api/client-env';
import { beianNumber, currentNetworkEnv } from '../lib/client-env';
import { isLoginPath } from './route-access';

/** Where the national filing (beian) is looked up; the footer links there as the regulation expects. */
const BEIAN_SITE = 'https://beian.miit.gov.cn/';

/** Spec §2: the beian footer shows only on login paths, and only in the public network build. */
export function showsBeianFooter(networkEnv: NetworkEnv, pathname: string): boolean {
  return networkEnv === 'public' && isLoginPath(pathname);
}

export function BeianFooter() {
  const [location] = useLocation();
  if (!showsBeianFooter(currentNetworkEnv(), location)) return null;
  const number = beianNumber();
  return (
    <footer data-testid="beian-footer" style={{ position: 'fixed', insetInline: 0, bottom: 0, padding: '10px 0', textAlign: 'center', fontSize: 12, color: '#8c8c8c' }}>
      {number ? (
        <a href={BEIAN_SITE} target="_blank" rel="noreferrer noopener" style={{ color: 'inherit' }}>
          {number}
        </a>
      ) : (
        'ICP 备案号未配置'
      )}
    </footer>
  );
}
