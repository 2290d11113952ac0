/**
 * A blank page with a spinner and no content (used while the system config loads, spec §4). Drawn
 * with CSS rather than antd's Spin, which the first screen would otherwise load only for this.
 */
export function PageLoading() {
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }} aria-busy="true" aria-label="加载中">
      <style>{'@keyframes drive-spin{to{transform:rotate(360deg)}}'}</style>
      <span style={{ width: 32, height: 32, border: '3px solid #d6e4ff', borderTopColor: '#0958d9', borderRadius: '50%', animation: 'drive-spin 0.8s linear infinite' }} />
    </div>
  );
}
