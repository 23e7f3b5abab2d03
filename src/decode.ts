// Reading a token without verifying anything: for logs and debugging only.
// The name says it: nothing returned here may be trusted.

import { decodeBase64Url } from '#platform';
import { JwtError } from './errors.js';
import { parseHeader, type JoseHeader } from './header.js';
import { split } from './jws.js';
import { parsePayload } from './payload.js';

export interface UnverifiedToken {
  readonly header: JoseHeader;
  readonly payload: Readonly<Record<string, unknown>>;
}

export function decodeUnverified(token: string, maxTokenLength = 16_384): UnverifiedToken {
  const dots = split(token, maxTokenLength);
  const { header } = parseHeader(token, dots.headerEnd);
  const bytes = decodeBase64Url(token.slice(dots.headerEnd + 1, dots.payloadEnd));
  if (bytes === undefined) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'payload is not canonical base64url' });
  return { header, payload: parsePayload(bytes) };
}
