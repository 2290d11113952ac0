import { Checkbox, Modal, Typography } from 'antd';
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
  return (
    <div style={{ marginTop: 16 }}>
      <Checkbox checked={checked} onChange={(e) => onChange(e.target.checked)}>
        <span data-testid="login-agreement">我已阅读并同意</span>
      </Checkbox>
      <Typography.Link onClick={() => setOpen(true)} data-testid="login-agreement-link">
        《用户协议》
      </Typography.Link>
      {showError && (
        <Typography.Text type="danger" style={{ display: 'block', fontSize: 12 }} data-testid="login-agreement-error">
          请先阅读并同意用户协议
        </Typography.Text>
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
          <Typography.Paragraph key={line}>{line}</Typography.Paragraph>
        ))}
      </Modal>
    </div>
  );
}
