import { Button, Result } from 'antd';

/** Shown when the user's details could not be loaded (the API client has said why). */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Result
      status="warning"
      title="个人信息加载失败"
      subTitle="请检查网络后重试。"
      extra={
        <Button type="primary" onClick={onRetry}>
          重试
        </Button>
      }
    />
  );
}
