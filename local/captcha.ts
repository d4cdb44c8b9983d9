// A stand-in for reCAPTCHA v3: the siteverify endpoint the server calls, and a
// browser shim for api.js that mints tokens the endpoint understands. A token is
// `dev.<action>.<score>`; anything else is refused as Google refuses a bad token.
import { z } from 'zod';
import { readBody, requestUrl, type RunningServer, sendJson, startServer } from './http-util';

export interface CaptchaStandInOptions {
  port: number;
  secret: string;
  /** Reported as `hostname`. Default `localhost`. */
  hostname?: string;
}

export const siteverifyResponseSchema = z.object({
  success: z.boolean(),
  score: z.number().min(0).max(1).optional(),
  action: z.string().optional(),
  challenge_ts: z.string().optional(),
  hostname: z.string().optional(),
  'error-codes': z.array(z.string()).optional(),
});
export type SiteverifyResponse = z.infer<typeof siteverifyResponseSchema>;

/** Actions may hold letters, digits, slashes and underscores, as in reCAPTCHA v3. */
const tokenPattern = /^dev\.([A-Za-z0-9_/]+)\.(\d+(?:\.\d+)?)$/;

/** Parses a stand-in token; undefined when it is not one (including `dev-fail`). */
function parseDevToken(token: string): { action: string; score: number } | undefined {
  const match = tokenPattern.exec(token);
  if (!match?.[1] || !match[2]) return undefined;
  const score = Number(match[2]);
  return score >= 0 && score <= 1 ? { action: match[1], score } : undefined;
}

function verifyDevToken(params: URLSearchParams, secret: string, hostname = 'localhost'): SiteverifyResponse {
  const givenSecret = params.get('secret');
  const response = params.get('response');
  const errors: string[] = [];
  if (!givenSecret) errors.push('missing-input-secret');
  else if (givenSecret !== secret) errors.push('invalid-input-secret');
  if (!response) errors.push('missing-input-response');
  if (errors.length > 0) return { success: false, 'error-codes': errors };
  const token = parseDevToken(response ?? '');
  if (!token) return { success: false, 'error-codes': ['invalid-input-response'] };
  return {
    success: true,
    score: token.score,
    action: token.action,
    challenge_ts: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    hostname,
  };
}

export async function startCaptchaStandIn(options: CaptchaStandInOptions): Promise<RunningServer> {
  return startServer(options.port, async (req, res) => {
    const url = requestUrl(req);
    if (url.pathname !== '/recaptcha/api/siteverify') return sendJson(res, 404, { error: 'not found' });
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'method not allowed' }, { allow: 'POST' });
    // Google reads the parameters from the form body, and from the query string too.
    const params = new URLSearchParams(url.search);
    let body: string;
    try {
      body = await readBody(req, 64 * 1024);
    } catch {
      return sendJson(res, 200, { success: false, 'error-codes': ['bad-request'] });
    }
    for (const [key, value] of new URLSearchParams(body)) params.set(key, value);
    sendJson(res, 200, verifyDevToken(params, options.secret, options.hostname));
  });
}

/**
 * Browser source standing in for https://www.google.com/recaptcha/api.js.
 * `localStorage.dev_captcha` forces the outcome: 'fail' gives one refused token (the
 * setting is then removed, so the next send goes through), a number from 0 to 1 gives
 * that score for as long as it is set; otherwise the score is 0.9.
 */
export function captchaShimScript(): string {
  return `/* Local stand-in for reCAPTCHA v3 (api.js). Never served outside local mode. */
(function (w) {
  'use strict';
  var DEFAULT_SCORE = 0.9;
  function storage() {
    try {
      return w.localStorage || (typeof localStorage !== 'undefined' ? localStorage : null);
    } catch (e) {
      return null;
    }
  }
  function forced() {
    try {
      var store = storage();
      return store ? store.getItem('dev_captcha') : null;
    } catch (e) {
      return null;
    }
  }
  function later(fn) {
    if (typeof w.setTimeout === 'function') w.setTimeout(fn, 0);
    else Promise.resolve().then(fn);
  }
  var grecaptcha = {
    ready: function (cb) {
      later(function () { cb(); });
    },
    execute: function (siteKey, options) {
      var action = options && options.action;
      if (!siteKey) return Promise.reject(new Error('grecaptcha.execute: a site key is required'));
      if (typeof action !== 'string' || !/^[A-Za-z0-9_\\/]+$/.test(action)) {
        return Promise.reject(new Error('grecaptcha.execute: action may only contain letters, digits, slashes and underscores'));
      }
      var force = forced();
      if (force === 'fail') {
        // One refused token: the visitor's next try goes through, as after a real refusal.
        try {
          storage().removeItem('dev_captcha');
        } catch (e) {
          /* blocked storage: every token fails until the setting goes */
        }
        return Promise.resolve('dev-fail');
      }
      var score = DEFAULT_SCORE;
      if (force !== null && force.trim() !== '') {
        var n = Number(force);
        if (isFinite(n) && n >= 0 && n <= 1) score = Math.round(n * 1000) / 1000;
      }
      return Promise.resolve('dev.' + action + '.' + String(score));
    }
  };
  w.grecaptcha = grecaptcha;
  // api.js?onload=fn calls window[fn] once loaded.
  try {
    var script = w.document && w.document.currentScript;
    var onload = script && script.src ? new URL(script.src, w.location && w.location.href).searchParams.get('onload') : null;
    if (onload && typeof w[onload] === 'function') later(function () { w[onload](); });
  } catch (e) {
    /* no document: nothing to call */
  }
})(typeof window !== 'undefined' ? window : globalThis);
`;
}
