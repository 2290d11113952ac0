import { Alert, Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { shareLinkPath } from '../../../common/api/sharing';
import { BrandMark } from '../../components/BrandMark';
import { ShareLinkPage } from './ShareLinkPage';

/** The token in a pasted link (…/shareLink/<token>, …/downLoadM/<token>) or a bare token. */
export function tokenOf(text: string): string | null {
  const m = /(?:shareLink|downLoadM|openShareLink)\/([A-Za-z0-9_-]{32})/.exec(text) ?? /^\s*([A-Za-z0-9_-]{32})\s*$/.exec(text);
  return m ? m[1]! : null;
}

/**
 * /openShareLink[/<token>]: a share link opened inside the app (signed in: save to 个人文件 is at hand).
 * Without a token: paste a link someone sent.
 */
export function OpenShareLinkPage({ token, target = 'openShareLink' }: { token: string | null; target?: 'shareLink' | 'downLoadM' | 'openShareLink' }) {
  const [, navigate] = useLocation();
  const [text, setText] = useState('');
  const [error, setError] = useState(false);
  if (token) return <ShareLinkPage token={token} inApp />;
  return (
    <div style={{ minHeight: '100vh', background: '#f5f6f8', display: 'flex', justifyContent: 'center', padding: 32 }} data-testid="open-share-link">
      <div style={{ width: '100%', maxWidth: 560, background: '#fff', borderRadius: 8, padding: 24, alignSelf: 'flex-start' }}>
        <BrandMark size={28} style={{ marginBottom: 16 }} />
        <Typography.Title level={4}>打开分享链接</Typography.Title>
        <Space.Compact style={{ width: '100%' }}>
          <Input value={text} onChange={(e) => setText(e.target.value)} placeholder="粘贴分享链接" data-testid="open-share-link-input" />
          <Button
            type="primary"
            onClick={() => {
              const t = tokenOf(text);
              if (!t) return setError(true);
              navigate(shareLinkPath(t, target));
            }}
          >
            打开
          </Button>
        </Space.Compact>
        {error && <Alert type="error" showIcon message="无法识别该链接" style={{ marginTop: 12 }} />}
      </div>
    </div>
  );
}
