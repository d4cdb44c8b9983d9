// What the WhatsApp sandbox's tests send it: Meta's OTP template message, and a POST to
// the messages endpoint with the tests' token and phone number id.

export const testToken = 'test-token';
export const testPhoneNumberId = '100000000000001';

/** The authentication template with its code, as the OTP channel sends it. */
export const otpMessage = (to: string, code = '123456') => ({
  messaging_product: 'whatsapp',
  to,
  type: 'template',
  template: {
    name: 'auth2',
    language: { code: 'en' },
    components: [
      { type: 'body', parameters: [{ type: 'text', text: code }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
    ],
  },
});

/** POSTs `body` to the sandbox at `url` as the functions do; `json` is read, not checked. */
export async function postMessage<Json>(url: string, body: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${url}/v19.0/${testPhoneNumberId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${testToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}
