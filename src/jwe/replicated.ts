// RFC 7519 §5.3: a JWE header may repeat `iss`, `sub` and `aud` in the clear so a
// recipient can route before decrypting. A copy that differs from the claims is a lie
// about the token, and whoever acted on the header was misled: refuse it.

import { JwtError } from '../errors.js';

const REPLICABLE = ['iss', 'sub', 'aud'] as const;

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string') return a === b;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((v, i) => typeof v === 'string' && v === b[i]);
}

/**
 * Throws ERR_JWT_CLAIM_INVALID (naming the claim) when the JWE protected header carries
 * `iss`, `sub` or `aud` with a value other than the payload's; absent from the header is fine.
 *
 * @example
 * checkReplicated({ alg: 'dir', enc: 'A256GCM', iss: 'https://a.example' }, { iss: 'https://a.example' }); // passes
 * checkReplicated({ alg: 'dir', enc: 'A256GCM', iss: 'https://a.example' }, { iss: 'https://b.example' }); // throws
 */
export function checkReplicated(
  header: Readonly<Record<string, unknown>>,
  payload: Readonly<Record<string, unknown>>,
): void {
  for (const name of REPLICABLE) {
    if (!Object.hasOwn(header, name)) continue;
    const claim = Object.hasOwn(payload, name) ? payload[name] : undefined;
    if (!same(header[name], claim))
      throw new JwtError('ERR_JWT_CLAIM_INVALID', {
        claim: name,
        reason: 'the JWE header replicates it with another value',
      });
  }
}
