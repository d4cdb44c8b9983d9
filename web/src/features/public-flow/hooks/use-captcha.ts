import { useCallback, useEffect, useState } from 'react';
import { useRuntimeConfig } from '../../../config';

// reCAPTCHA v3 (in local mode a same-origin stand-in with the same API). The script
// URL comes from the runtime config (for Google it already carries render=<siteKey>);
// it is loaded once per page, when step 1 first needs it.

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<Grecaptcha> | undefined;

function loadScript(url: string): Promise<Grecaptcha> {
  if (window.grecaptcha) return Promise.resolve(window.grecaptcha);
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => (window.grecaptcha ? resolve(window.grecaptcha) : reject(new Error('no grecaptcha')));
    script.onerror = () => {
      script.remove();
      loading = undefined; // A later visit of step 1 may try again.
      reject(new Error(`could not load ${url}`));
    };
    document.head.append(script);
  });
  return loading;
}

export type CaptchaState = 'loading' | 'ready' | 'failed';

export const SEND_OTP_ACTION = 'send_otp';

/** Loads the captcha script; `token()` resolves with a token for `send_otp`, or rejects. */
export function useCaptcha() {
  const { captcha } = useRuntimeConfig();
  const [state, setState] = useState<CaptchaState>(() => (window.grecaptcha ? 'ready' : 'loading'));

  useEffect(() => {
    let active = true;
    loadScript(captcha.scriptUrl).then(
      () => active && setState('ready'),
      () => active && setState('failed'),
    );
    return () => {
      active = false;
    };
  }, [captcha.scriptUrl]);

  const token = useCallback(async (): Promise<string> => {
    const grecaptcha = await loadScript(captcha.scriptUrl);
    await new Promise<void>((resolve) => grecaptcha.ready(resolve));
    const value = await grecaptcha.execute(captcha.siteKey, { action: SEND_OTP_ACTION });
    if (typeof value !== 'string' || value === '') throw new Error('no captcha token');
    return value;
  }, [captcha.scriptUrl, captcha.siteKey]);

  return { state, token };
}
