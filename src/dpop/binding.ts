// The two values that tie a DPoP proof to an access token: the proof's `ath` (the
// token's hash, RFC 9449 §4.2) and the token's `cnf.jkt` (the proof key's RFC 7638
// thumbprint, RFC 9449 §6.1).

import { encode } from '../b64.js';
import { ownClaim } from '../claims.js';
import { digest } from '../digest.js';
import { JwtError } from '../errors.js';
import { dpopError } from './error.js';

/**
 * The `ath` a proof sent with `accessToken` must carry: base64url(SHA-256) of the
 * token's ASCII bytes. Undefined for a token that is not printable ASCII (no
 * `ath` can match it).
 *
 * @example
 * dpopAccessTokenHash('Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU');
 * // 'fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo' (RFC 9449 §7.1)
 */
export function dpopAccessTokenHash(accessToken: string): string | undefined {
  if (typeof accessToken !== 'string' || !/^[\x20-\x7e]+$/.test(accessToken)) return undefined;
  return encode(digest('SHA-256', accessToken));
}

/**
 * Check that a verified access token's payload is bound to the proof's key: its
 * `cnf` is an object whose `jkt` equals the proof's thumbprint. Anything else
 * (no `cnf`, no `jkt`, another key) is ERR_DPOP_BINDING_MISMATCH. Call it only on a
 * payload whose signature and claims were verified, with a proof verifyDpopProof
 * returned (or its `jkt`).
 *
 * @example
 * const { payload } = await verifier.verify(accessToken);
 * const proof = await verifyDpopProof(request.headers.get('dpop')!, {
 *   method: request.method,
 *   url: request.url,
 *   algorithms: ['ES256'],
 *   accessToken,
 * });
 * checkDpopBinding(payload, proof); // throws ERR_DPOP_BINDING_MISMATCH unless payload.cnf.jkt === proof.jkt
 */
export function checkDpopBinding(
  payload: Readonly<Record<string, unknown>>,
  proof: { readonly jkt: string } | string,
): void {
  const jkt = typeof proof === 'string' ? proof : proof?.jkt;
  if (typeof jkt !== 'string' || jkt.length === 0)
    throw dpopError('ERR_DPOP_BINDING_MISMATCH', { reason: 'no proof thumbprint given' });
  const cnf = typeof payload === 'object' && payload !== null ? ownClaim(payload, 'cnf') : undefined;
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf))
    throw dpopError('ERR_DPOP_BINDING_MISMATCH', { claim: 'cnf', reason: 'missing' });
  const bound = ownClaim(cnf as Record<string, unknown>, 'jkt');
  if (typeof bound !== 'string') throw dpopError('ERR_DPOP_BINDING_MISMATCH', { claim: 'cnf.jkt', reason: 'missing' });
  if (bound !== jkt) throw dpopError('ERR_DPOP_BINDING_MISMATCH', { claim: 'cnf.jkt' });
}
