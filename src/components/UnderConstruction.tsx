import { Result } from 'antd';

/** Empty state for pages of the spec that are not built yet. */
export function UnderConstruction({ title }: { title?: string }) {
  return <Result status="info" title="功能建设中" subTitle={title ? `「${title}」页面即将上线，敬请期待。` : '该页面即将上线，敬请期待。'} data-testid="under-construction" />;
}
