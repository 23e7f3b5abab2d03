// Compact JWS splitting (RFC 7515 §7.1): bound the length before any other work,
// then exactly three segments; a JWS JSON serialization or a JWE is malformed here.

import { JwtError } from './errors.js';

/** Where the two dots of a compact JWS are. */
export interface Dots {
  /** Index of the first '.': the header segment is token[0, headerEnd). */
  headerEnd: number;
  /** Index of the second '.': the signing input is token[0, payloadEnd). */
  payloadEnd: number;
}

export function split(token: unknown, maxLength: number): Dots {
  if (typeof token !== 'string') throw new JwtError('ERR_JWT_MALFORMED', { reason: 'token must be a string' });
  if (token.length > maxLength) throw new JwtError('ERR_JWT_TOO_LARGE');
  const headerEnd = token.indexOf('.');
  const payloadEnd = headerEnd < 0 ? -1 : token.indexOf('.', headerEnd + 1);
  if (headerEnd <= 0 || payloadEnd < 0) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'expected three segments' });
  if (token.indexOf('.', payloadEnd + 1) >= 0)
    throw new JwtError('ERR_JWT_MALFORMED', { reason: 'expected three segments' });
  if (payloadEnd === token.length - 1) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'empty signature' });
  return { headerEnd, payloadEnd };
}
