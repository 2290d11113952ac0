import { CloseCircleFilled, ExclamationCircleFilled, InfoCircleFilled, LockOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import type { ReactNode } from 'react';

export type StatusKind = 'info' | 'warning' | 'error' | '403' | '404';

/**
 * A page-sized status message (icon, title, explanation, actions) for the pages every visitor may
 * meet before logging in: errors, placeholders, 403/404. antd's Result does the same but bundles its
 * three large SVG illustrations with it, which the first screen (the login page) would pay for.
 */
export function StatusResult({ status, title, subTitle, extra, 'data-testid': testId }: { status: StatusKind; title: ReactNode; subTitle?: ReactNode; extra?: ReactNode; 'data-testid'?: string }) {
  const { token } = theme.useToken();
  const icon = {
    info: <InfoCircleFilled style={{ color: token.colorPrimary }} />,
    warning: <ExclamationCircleFilled style={{ color: token.colorWarning }} />,
    error: <CloseCircleFilled style={{ color: token.colorError }} />,
    '403': <LockOutlined style={{ color: token.colorTextSecondary }} />,
    '404': <QuestionCircleOutlined style={{ color: token.colorTextSecondary }} />,
  }[status];
  return (
    <div role={status === 'error' || status === 'warning' ? 'alert' : undefined} data-testid={testId} style={{ padding: '48px 32px', textAlign: 'center' }}>
      <div aria-hidden style={{ fontSize: 72, lineHeight: 1, marginBottom: 24 }}>
        {icon}
      </div>
      <div style={{ color: token.colorTextHeading, fontSize: 24, lineHeight: 1.35 }}>{title}</div>
      {subTitle && <div style={{ color: token.colorTextSecondary, fontSize: 14, marginTop: 8 }}>{subTitle}</div>}
      {extra && <div style={{ marginTop: 24 }}>{extra}</div>}
    </div>
  );
}
