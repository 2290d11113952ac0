import { StatusResult } from './StatusResult';

/** Empty state for pages of the spec that are not built yet. */
export function UnderConstruction({ title }: { title?: string }) {
  return <StatusResult status="info" title="功能建设中" subTitle={title ? `「${title}」页面即将上线，敬请期待。` : '该页面即将上线，敬请期待。'} data-testid="under-construction" />;
}
