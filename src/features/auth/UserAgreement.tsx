import { Button, Modal, theme } from 'antd';
import { useState } from 'react';

/** The agreement text: what a company's users accept before using its drive. */
const AGREEMENT = [
  '1. 本系统仅供本单位员工办理工作使用，账号仅限本人使用，不得转借他人。',
  '2. 禁止上传、分享涉密文件，以及法律法规规定不得公开的信息。',
  '3. 请妥善保管账号密码，定期修改密码；发现账号异常请立即联系管理员。',
  '4. 系统会记录登录、上传、下载、分享等操作日志，用于安全审计。',
  '5. 违反以上规定造成的后果由使用者本人承担。',
];

/** '我已阅读并同意《用户协议》': must be ticked before logging in; the link shows the text. */
export function UserAgreement({ checked, onChange, showError }: { checked: boolean; onChange: (checked: boolean) => void; showError: boolean }) {
  const [open, setOpen] = useState(false);
  const { token } = theme.useToken();
  return (
    <div style={{ marginTop: 16 }}>
      {/* The browser's own checkbox (in the theme's colour): antd's would be loaded for this one box. */}
      <label style={{ display: 'inline-flex', alignItems: 'center', gap: 8, cursor: 'pointer', minHeight: 24 }}>
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} style={{ width: 16, height: 16, margin: 0, accentColor: token.colorPrimary, cursor: 'pointer' }} />
        <span data-testid="login-agreement">我已阅读并同意</span>
      </label>
      {/* Plain elements rather than Typography, which would bring its tooltip machinery to the login page. */}
      <Button type="link" onClick={() => setOpen(true)} data-testid="login-agreement-link" style={{ padding: 0, height: 'auto' }}>
        《用户协议》
      </Button>
      {showError && (
        <div role="alert" style={{ color: token.colorError, fontSize: 12 }} data-testid="login-agreement-error">
          请先阅读并同意用户协议
        </div>
      )}
      <Modal
        title="用户协议"
        open={open}
        okText="同意"
        cancelText="关闭"
        onOk={() => {
          onChange(true);
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      >
        {AGREEMENT.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </Modal>
    </div>
  );
}
