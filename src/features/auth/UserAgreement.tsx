import { Button, theme } from 'antd';
import { lazy, Suspense, useState } from 'react';

// The text's dialog loads when the link is first clicked: the login page itself does without Modal.
const AgreementDialog = lazy(() => import('./AgreementDialog'));

/** '我已阅读并同意《用户协议》': must be ticked before logging in; the link shows the text. */
export function UserAgreement({ checked, onChange, showError }: { checked: boolean; onChange: (checked: boolean) => void; showError: boolean }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const { token } = theme.useToken();
  return (
    <div style={{ marginTop: 16 }}>
      {/* The browser's own checkbox (in the theme's colour): antd's would be loaded for this one box. */}
      <label style={{ display: 'inline-flex', alignItems: 'center', gap: 8, cursor: 'pointer', minHeight: 24 }}>
        <input type="checkbox" data-testid="login-agreement-box" checked={checked} onChange={(e) => onChange(e.target.checked)} style={{ width: 16, height: 16, margin: 0, accentColor: token.colorPrimary, cursor: 'pointer' }} />
        <span data-testid="login-agreement">我已阅读并同意</span>
      </label>
      {/* Plain elements rather than Typography, which would bring its tooltip machinery to the login page. */}
      <Button type="link" onClick={() => (setOpened(true), setOpen(true))} data-testid="login-agreement-link" style={{ padding: 0, height: 'auto' }}>
        《用户协议》
      </Button>
      {showError && (
        <div role="alert" style={{ color: token.colorError, fontSize: 12 }} data-testid="login-agreement-error">
          请先阅读并同意用户协议
        </div>
      )}
      {opened && (
        <Suspense fallback={null}>
          <AgreementDialog
            open={open}
            onAgree={() => {
              onChange(true);
              setOpen(false);
            }}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
