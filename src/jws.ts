// Compact JWS splitting (RFC 7515 §7.1): bound the length before any other work,
// then exactly three segments; a JWS JSON serialization or a JWE is malformed here.

import { JwtError } from './errors.js';

export interface Segments {
  /** End of the header segment (index of the first '.'). */
  h: number;
  /** Index of the second '.'; the signing input is token[0, p). */
  p: number;
}

export function split(token: unknown, maxLength: number): Segments {
  if (typeof token !== 'string') throw new JwtError('ERR_JWT_MALFORMED', { reason: 'token must be a string' });
  if (token.length > maxLength) throw new JwtError('ERR_JWT_TOO_LARGE');
  const h = token.indexOf('.');
  const p = h < 0 ? -1 : token.indexOf('.', h + 1);
  if (h <= 0 || p < 0) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'expected three segments' });
  if (token.indexOf('.', p + 1) >= 0) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'expected three segments' });
  if (p === token.length - 1) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'empty signature' });
  return { h, p };
}
