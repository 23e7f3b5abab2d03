// Reading a token without verifying anything: for logs and debugging only.
// The name says it: nothing returned here may be trusted.

import { decodeBase64Url } from '#platform';
import { JwtError } from './errors.js';
import { parseHeader, type JoseHeader } from './header.js';
import { split } from './jws.js';
import { parsePayload } from './payload.js';

/**
 * A token's header and payload, parsed but NOT verified: never trust them.
 *
 * @example
 * const { payload }: UnverifiedToken = decodeUnverified(token);
 */
export interface UnverifiedToken {
  readonly header: JoseHeader;
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * Parse a token without verifying anything (the shape and header rules still
 * apply, and throw JwtErrors). For logs and debugging only.
 *
 * @example
 * import { decodeUnverified } from 'edgejwt';
 *
 * const { header, payload } = decodeUnverified(token);
 * console.log(header.kid, payload.iss); // never used for a decision
 */
export function decodeUnverified(token: string, maxTokenLength = 16_384): UnverifiedToken {
  const dots = split(token, maxTokenLength);
  const { header } = parseHeader(token, dots.headerEnd);
  const bytes = decodeBase64Url(token.slice(dots.headerEnd + 1, dots.payloadEnd));
  if (bytes === undefined) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'payload is not canonical base64url' });
  return { header, payload: parsePayload(bytes) };
}
