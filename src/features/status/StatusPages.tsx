import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { BrandMark } from '../../components/BrandMark';
import { UnderConstruction } from '../../components/UnderConstruction';
import { StatusResult } from '../../components/StatusResult';
import { HelpLine } from '../../components/HelpLine';
import { savedAccount } from '../../lib/data/account';
import { lastLinkPage } from '../../lib/link-return';

function FullPage({ children }: { children: ReactNode }) {
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', background: '#fff' }}>
      <BrandMark size={32} style={{ marginBottom: 8 }} />
      {children}
    </div>
  );
}

function HomeButton() {
  const [, navigate] = useLocation();
  return (
    <Button type="primary" onClick={() => navigate('/')}>
      返回首页
    </Button>
  );
}

export function NotFoundPage() {
  return (
    <FullPage>
      <StatusResult status="404" title="404" subTitle="抱歉，您访问的页面不存在。" extra={<HomeButton />} data-testid="not-found" />
      <HelpLine />
    </FullPage>
  );
}

export function PermissionDeniedPage() {
  return (
    <FullPage>
      <StatusResult status="403" title="403" subTitle="抱歉，您没有权限访问此页面。" extra={<HomeButton />} data-testid="permission-denied" />
    </FullPage>
  );
}

/**
 * Spec §8 (DEP10213): a share link's downloads are used up. Who lands here came from a link: 返回
 * goes back to that link's page (this tab's last one); a browser with no link page and no account
 * of ours gets nothing to click — never a way into the internal login. A member's browser keeps 返回首页.
 */
export function DownloadExceededPage() {
  const [, navigate] = useLocation();
  const back = lastLinkPage();
  const member = savedAccount() !== null;
  const extra = back ? (
    <Button type="primary" onClick={() => navigate(back)} data-testid="back-to-link">
      返回分享页
    </Button>
  ) : member ? (
    <HomeButton />
  ) : undefined;
  return (
    <FullPage>
      <StatusResult
        status="warning"
        title="下载次数已超过限制"
        subTitle={`该分享的下载次数已用完，请联系分享者。${extra ? '' : '您可以关闭此页面。'}`}
        extra={extra}
        data-testid="download-exceeded"
      />
    </FullPage>
  );
}

/** Top-level pages of the spec not built yet (/downLoadM, /passwordChage, share links). */
export function StandalonePlaceholderPage({ title }: { title: string }) {
  return (
    <FullPage>
      <UnderConstruction title={title} />
    </FullPage>
  );
}
