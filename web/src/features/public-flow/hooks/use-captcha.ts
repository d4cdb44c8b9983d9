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

const SEND_OTP_ACTION = 'send_otp';

/**
 * Loads the captcha script once `load` is true; `token()` resolves with a token for
 * `action` (`send_otp` by default; the grievance form's is `grievance`), or rejects. The number step passes `load` from the visitor's first touch of
 * the field: Google's script is larger than the whole public page, and a phone on a slow
 * connection should spend its first seconds on the page itself.
 */
export function useCaptcha(load = true, action = SEND_OTP_ACTION) {
  const { captcha } = useRuntimeConfig();
  const [state, setState] = useState<CaptchaState>(() => (window.grecaptcha ? 'ready' : 'loading'));

  useEffect(() => {
    if (!load) return;
    let active = true;
    loadScript(captcha.scriptUrl).then(
      () => active && setState('ready'),
      () => active && setState('failed'),
    );
    return () => {
      active = false;
    };
  }, [captcha.scriptUrl, load]);

  const token = useCallback(async (): Promise<string> => {
    const grecaptcha = await loadScript(captcha.scriptUrl);
    await new Promise<void>((resolve) => grecaptcha.ready(resolve));
    const value = await grecaptcha.execute(captcha.siteKey, { action });
    if (typeof value !== 'string' || value === '') throw new Error('no captcha token');
    return value;
  }, [captcha.scriptUrl, captcha.siteKey, action]);

  return { state, token };
}
