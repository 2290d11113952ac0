import type { CaptchaImage } from '../../common/api/types';

/** The captcha picture; a click fetches a new one. A title rather than antd's Tooltip: the login page does without the popup machinery. */
export function CaptchaImageButton({ captcha, refresh, testId, height }: { captcha: CaptchaImage | null; refresh: () => void; testId: string; height: number }) {
  return (
    <button
      type="button"
      onClick={refresh}
      aria-label="刷新验证码"
      title="看不清？点击换一张"
      style={{ padding: 0, border: '1px solid #d9d9d9', borderRadius: 6, background: '#fff', cursor: 'pointer', width: 120, height, flex: 'none' }}
    >
      {captcha ? <img data-testid={`${testId}-image`} src={captcha.image} alt="验证码" style={{ width: '100%', height: '100%', objectFit: 'contain' }} /> : <span data-testid={`${testId}-image`}>加载中…</span>}
    </button>
  );
}
