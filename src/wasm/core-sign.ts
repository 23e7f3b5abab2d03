// HMAC signing through the core in one call: a function over Core rather than its
// method, so a bundle that only verifies leaves it out.

import { readText, writeText, writeUtf8 } from '#platform';
import { encodedLength } from '../b64.js';
import { JwtError } from '../errors.js';
import { EXTRA_CAP, PAYLOAD_CAP } from './abi.js';
import type { Core } from './core.js';

/**
 * The compact JWS `header.base64url(claims).base64url(MAC)` with the MAC under `slot`,
 * built by the core in one call (the claims' base64url goes straight into INPUT behind
 * the header, is MACed there, and the tag is appended). `header` is the encoded header
 * segment; the claims are the JSON object text `json` with `extra` (",name:value..." or
 * '') inserted before its closing brace. Throws ERR_JWT_TOO_LARGE when the signing
 * input would exceed `maxInput` characters.
 * @example
 * const jws = hmacSignJws(getCore(), key.slot(), headerSegment, '{"sub":"a"}', '', 65_536);
 */
export function hmacSignJws(
  core: Core,
  slot: number,
  header: string,
  json: string,
  extra: string,
  maxInput: number,
): string {
  // A signer's header segment, and the time members it appends, repeat from call to
  // call: the core keeps them (the header at INPUT, which hmac_sign_jws writes only
  // after it and every other write takes back; the members in EXTRA, which only
  // this function writes), so they are written again only when they change.
  const resident = core.signingHeader === header;
  core.takeInput();
  const buffer = core.buffer;
  const h = resident ? header.length : writeText(buffer, core.inputPtr, core.inputCap, header);
  if (h >= 0) core.signingHeader = header;
  let n = writeUtf8(buffer, core.payloadPtr, PAYLOAD_CAP, json);
  let e = 0;
  if (n > 0 && extra !== '') {
    const kept = core.signingExtra;
    if (kept !== undefined && kept.text === extra) e = kept.length;
    else {
      core.signingExtra = undefined;
      e = writeUtf8(buffer, core.extraPtr, EXTRA_CAP, extra);
      if (e >= 0) {
        core.signingExtra = { text: extra, length: e };
      } else {
        // Longer than EXTRA: over the payload's closing brace, then the brace again.
        e = 0;
        const m = writeUtf8(buffer, core.payloadPtr + n - 1, PAYLOAD_CAP - n, extra);
        if (m < 0) n = -1;
        else {
          core.memoryView[core.payloadPtr + n - 1 + m] = 0x7d;
          n += m;
        }
      }
    }
  }
  if (h < 0 || n < 0 || n + e > PAYLOAD_CAP || h + 1 + encodedLength(n + e) > maxInput)
    throw new JwtError('ERR_JWT_TOO_LARGE', { reason: 'the token would exceed 65536 characters' });
  const len = core.exports.hmac_sign_jws(slot, h, n, e);
  if (len <= 0) throw new JwtError('ERR_WASM_CORE', { reason: `hmac_sign_jws status ${len}` });
  return readText(core.buffer, core.inputPtr, core.inputPtr + len, true);
}
