// `forwardPayload`: the verified payload as one header, base64url of its JSON (UTF-8),
// so the origin reads every claim without parsing a token. The forwardPayload part
// (index.ts) brings it: a config without `forwardPayload` bundles no encoder.

import { encode } from '../../../b64.js';

const encoder = new TextEncoder();

/**
 * The header value for `payload`: base64url (no padding) of its JSON text.
 *
 * @example
 * payloadHeaderValue({ sub: 'a' }); // 'eyJzdWIiOiJhIn0'
 */
export function payloadHeaderValue(payload: unknown): string {
  return encode(encoder.encode(JSON.stringify(payload)));
}
