import { useCallback, useEffect, useRef, useState } from 'react';
import { AUTH } from '../../common/api/endpoints/auth';
import type { CaptchaImage } from '../../common/api/types';
import { api } from './api';

export function fetchCaptcha(): Promise<CaptchaImage> {
  return api.call(AUTH.captcha);
}

/**
 * The current single-use captcha and a function to fetch a new one. One request per generation, even
 * when React runs the effect twice (StrictMode in development): a second request would silently
 * replace the captcha the user (or an end-to-end test) is answering.
 */
export function useCaptcha(): { captcha: CaptchaImage | null; refresh: () => void } {
  const [captcha, setCaptcha] = useState<CaptchaImage | null>(null);
  const [generation, setGeneration] = useState(0);
  const inFlight = useRef<{ generation: number; promise: Promise<CaptchaImage> } | null>(null);

  useEffect(() => {
    let alive = true;
    if (inFlight.current?.generation !== generation) inFlight.current = { generation, promise: fetchCaptcha() };
    inFlight.current.promise.then(
      (c) => alive && setCaptcha(c),
      () => alive && setCaptcha(null),
    );
    return () => {
      alive = false;
    };
  }, [generation]);

  const refresh = useCallback(() => setGeneration((g) => g + 1), []);
  return { captcha, refresh };
}
