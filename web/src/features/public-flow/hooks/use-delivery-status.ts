import { useEffect, useState } from 'react';
import type { DeliveryStatus } from '../../../../../rules/api';
import { ApiError } from '../../../lib/api-client';
import { getOtpStatus } from '../api/get-otp-status';
import type { OtpSnapshot } from '../utils/flow-storage';

const STATUS_POLL_MS = 3000;

export interface Delivery {
  /** As the provider last reported it; null until the first answer. */
  readonly status: DeliveryStatus | null;
  /** The server agrees that the visitor may ask for the code by SMS. */
  readonly smsOffer: boolean;
}

const unknown: Delivery = { status: null, smsOffer: false };

function isDelivered(status: DeliveryStatus | null): boolean {
  return status === 'delivered' || status === 'read';
}

/**
 * Asks POST /api/otp/status about the code's message every few seconds (a third as often
 * once SMS is offered or the send failed), and once more as soon as the SMS offer is due
 * (so it appears on time; the server confirms it). Stops once
 * the message is delivered, the handle is refused or the code has run out; pauses while the
 * tab is hidden. A new handle (a resend, a switch to SMS) starts over.
 */
export function useDeliveryStatus(mobile: string, otp: OtpSnapshot, intervalMs = STATUS_POLL_MS): Delivery {
  const { handle, expiresAt, smsOfferAt } = otp;
  const [state, setState] = useState<{ handle?: string; delivery: Delivery }>({ delivery: unknown });

  useEffect(() => {
    if (!handle) return;
    let stopped = false;
    let timer: number | undefined;
    let inFlight: AbortController | undefined;
    let offerAsked = false;
    // Once the visitor has what they need (the offer, or the news that WhatsApp failed),
    // ask a third as often: a crowd of waiting phones is a load of its own.
    let slow = false;

    const expired = () => expiresAt !== undefined && Date.now() >= expiresAt;
    const hidden = () => document.visibilityState === 'hidden';

    const schedule = () => {
      if (stopped || timer !== undefined || inFlight || hidden()) return;
      let delay = slow ? intervalMs * 3 : intervalMs;
      // The offer is due before the next round: ask right then.
      if (!offerAsked && smsOfferAt !== null && smsOfferAt !== undefined) {
        const untilOffer = smsOfferAt - Date.now();
        if (untilOffer <= delay) {
          offerAsked = true;
          delay = Math.max(0, untilOffer + 250);
        }
      }
      if (expiresAt !== undefined) delay = Math.min(delay, Math.max(0, expiresAt - Date.now()));
      timer = window.setTimeout(() => {
        timer = undefined;
        void poll();
      }, delay);
    };

    const poll = async () => {
      if (stopped || hidden()) return;
      if (expired()) {
        stopped = true;
        return;
      }
      const controller = new AbortController();
      inFlight = controller;
      try {
        const answer = await getOtpStatus({ mobile, handle }, controller.signal);
        if (stopped) return;
        setState({ handle, delivery: { status: answer.status, smsOffer: answer.smsOffer } });
        if (isDelivered(answer.status)) stopped = true;
        slow = answer.smsOffer || answer.status === 'failed';
      } catch (error) {
        if (stopped) return;
        // A refused handle will not be accepted later; anything else (offline, busy) is tried next round.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
          stopped = true;
        }
      } finally {
        if (inFlight === controller) inFlight = undefined;
      }
      schedule();
    };

    const onVisibility = () => {
      if (!hidden() && timer === undefined && !inFlight) void poll();
    };
    document.addEventListener('visibilitychange', onVisibility);
    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      inFlight?.abort();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [mobile, handle, expiresAt, smsOfferAt, intervalMs]);

  return state.handle === handle && handle ? state.delivery : unknown;
}
