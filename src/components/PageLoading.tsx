import { Spin } from 'antd';

/** A blank page with a spinner and no content (used while the system config loads, spec §4). */
export function PageLoading() {
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }} aria-busy="true">
      <Spin size="large" />
    </div>
  );
}
