import { Modal } from 'antd';

/** The agreement text: what a company's users accept before using its drive. */
const AGREEMENT = [
  '1. 本系统仅供本单位员工办理工作使用，账号仅限本人使用，不得转借他人。',
  '2. 禁止上传、分享涉密文件，以及法律法规规定不得公开的信息。',
  '3. 请妥善保管账号密码，定期修改密码；发现账号异常请立即联系管理员。',
  '4. 系统会记录登录、上传、下载、分享等操作日志，用于安全审计。',
  '5. 违反以上规定造成的后果由使用者本人承担。',
];

/** 用户协议: the text, 同意 ticks the box. */
export default function AgreementDialog({ open, onAgree, onClose }: { open: boolean; onAgree: () => void; onClose: () => void }) {
  return (
    <Modal title="用户协议" open={open} okText="同意" cancelText="关闭" onOk={onAgree} onCancel={onClose}>
      {AGREEMENT.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </Modal>
  );
}
