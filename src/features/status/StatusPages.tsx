import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { BrandMark } from '../../components/BrandMark';
import { UnderConstruction } from '../../components/UnderConstruction';
import { StatusResult } from '../../components/StatusResult';

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

export function DownloadExceededPage() {
  return (
    <FullPage>
      <StatusResult status="warning" title="下载次数已超过限制" subTitle="该文件的下载次数已用完，请联系分享者或管理员。" extra={<HomeButton />} data-testid="download-exceeded" />
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
