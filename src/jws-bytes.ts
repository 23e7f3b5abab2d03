// Step 4 of the verify path (docs/architecture.md, "The verify path"): the token's
// payload and signature segments decoded, in the Wasm core or in JS. The core decodes
// when the token's `alg` is one it verifies (HS*, EdDSA) and the verifier allows it
// (the signing input is then already where its check reads it), or when it is running
// anyway (its decode is the faster one: bench/verify/ab.ts). Any other token (RS*, PS*,
// ES*, or an `alg` the verifier will refuse) in an isolate whose core has not started
// is decoded in JS, so a verifier without HS* or EdDSA never instantiates the core.
// Both give the same DecodedJws and the same errors, payload first
// (test/node/core-lazy.test.ts).

import { decodeBase64Url, utf8Text } from '#platform';
import { decodeSegment } from './b64.js';
import { JwtError } from './errors.js';
import { DecodedJws, JWS_PAYLOAD_NOT_BASE64URL, JWS_SIGNATURE_NOT_BASE64URL } from './wasm/core.js';
import { coreStarted, getCore } from './wasm/instance.js';

/**
 * Decode the payload and signature of `token` (dots at headerEnd and payloadEnd), in
 * the core when `coreAlg` (an allowed HS* or EdDSA token) or when the core is running,
 * else in JS. Throws ERR_JWT_MALFORMED for a segment that is not canonical base64url.
 *
 * @example
 * const jws = decodeJws(token, dots.headerEnd, dots.payloadEnd, false); // RS256: no core started for it
 */
export function decodeJws(token: string, headerEnd: number, payloadEnd: number, coreAlg: boolean): DecodedJws {
  if (coreAlg || coreStarted()) return getCore().decodeJws(token, headerEnd, payloadEnd);
  return decodeJwsInJs(token, headerEnd, payloadEnd);
}

/**
 * decodeJws for a verifier with ONE policy whose allowed algorithms are all verified by
 * the core (edgejwt/hmac): an allowed token is decoded in the core, and any other can
 * only end in the refusal decodeJws and the verify path would give it, so it gets that
 * without being decoded: ERR_JWT_MALFORMED for a segment that is not canonical base64url
 * (payload first), else ERR_JWS_ALG_NOT_ALLOWED. Its bundle carries no JS decoder. Not
 * for `issuers`, where the payload and issuer are judged before the algorithm.
 *
 * @example
 * const jws = decodeAllowedOnly(token, dots.headerEnd, dots.payloadEnd, coreAlgs.has(alg));
 */
export function decodeAllowedOnly(token: string, headerEnd: number, payloadEnd: number, coreAlg: boolean): DecodedJws {
  if (coreAlg) return getCore().decodeJws(token, headerEnd, payloadEnd);
  if (decodeSegment(token, headerEnd + 1, payloadEnd) === undefined)
    throw new JwtError('ERR_JWT_MALFORMED', { reason: JWS_PAYLOAD_NOT_BASE64URL });
  if (decodeSegment(token, payloadEnd + 1, token.length) === undefined)
    throw new JwtError('ERR_JWT_MALFORMED', { reason: JWS_SIGNATURE_NOT_BASE64URL });
  throw new JwtError('ERR_JWS_ALG_NOT_ALLOWED');
}

/**
 * Core.decodeJws in JS: the bytes are held by the returned value, not in the core's regions.
 *
 * @example
 * decodeJwsInJs(token, dots.headerEnd, dots.payloadEnd).held!.signature; // the signature bytes
 */
export function decodeJwsInJs(token: string, headerEnd: number, payloadEnd: number): DecodedJws {
  const payload = decodeBase64Url(token.slice(headerEnd + 1, payloadEnd));
  if (payload === undefined) throw new JwtError('ERR_JWT_MALFORMED', { reason: JWS_PAYLOAD_NOT_BASE64URL });
  const signature = decodeBase64Url(token.slice(payloadEnd + 1));
  if (signature === undefined) throw new JwtError('ERR_JWT_MALFORMED', { reason: JWS_SIGNATURE_NOT_BASE64URL });
  return new DecodedJws(token, headerEnd, payloadEnd, utf8Text(payload), payload.length, signature.length, {
    payload,
    signature,
  });
}

/**
 * A copy of the payload bytes of `jws` (raw-payload verifiers), wherever it was decoded.
 *
 * @example
 * const bytes = payloadBytes(decodeJws(token, 5, 20, false));
 */
export function payloadBytes(jws: DecodedJws): Uint8Array {
  // A copy: the node platform's decoder may hand out a view of a pooled buffer.
  return jws.held !== undefined ? new Uint8Array(jws.held.payload) : getCore().payloadBytes(jws);
}
