import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { otpStatusRequestSchema, type OtpStatusResponse } from '../../rules/application';
import { toStoredPhone } from '../../rules/phone';
import type { DeliveryStore } from '../adapters/deliveries';
import { systemClock } from '../lib/clock';
import { readDeliveryHandle } from '../lib/codes';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { smsOfferOpen } from '../lib/otp-channels';
import { publicFlowRuntime } from '../lib/public-flow';
import { wiredOnFirstCall } from '../lib/wiring';

export interface OtpStatusDeps {
  readonly deliveries: () => Pick<DeliveryStore, 'get'>;
  readonly signingKey: () => Promise<string>;
  readonly clock: () => Date;
  readonly settings: { readonly hasSms: boolean; readonly smsOfferAfterSeconds: number };
}

/**
 * How the code the page asked for is doing, as the provider reported it: the page says
 * "delivered", or offers SMS when WhatsApp failed or stays silent. The handle is bound to
 * the number; a wrong, foreign or expired one answers one error, whatever the reason.
 */
export function makeHandler(deps: OtpStatusDeps) {
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { mobile, handle } = parseBody(event, otpStatusRequestSchema);
    const phone = toStoredPhone(mobile);
    const now = deps.clock();
    const named = readDeliveryHandle(await deps.signingKey(), phone, handle, now);
    if (!named) throw new AppError('DELIVERY_HANDLE_INVALID');
    const record = await deps.deliveries().get({ channel: named.channel, messageId: named.messageId });
    const status = record?.status ?? 'accepted';
    const body: OtpStatusResponse = {
      channel: named.channel,
      status,
      smsOffer:
        named.channel === 'whatsapp' &&
        deps.settings.hasSms &&
        smsOfferOpen(status, named.issuedAt, now, deps.settings.smsOfferAfterSeconds),
    };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = publicFlowRuntime();
  return makeHandler({
    deliveries: runtime.deliveries,
    signingKey: runtime.secrets.signingKey,
    clock: systemClock(),
    settings: {
      hasSms: runtime.otpChannels().hasSms,
      smsOfferAfterSeconds: runtime.env.OTP_SMS_OFFER_AFTER_SECONDS,
    },
  });
});
