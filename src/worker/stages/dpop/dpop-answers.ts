// The guard's DPoP refusals (RFC 9449 §7.1, §9): a `DPoP` challenge with the error,
// a fixed description and the accepted algorithms; `use_dpop_nonce` with a fresh
// `DPoP-Nonce`; 503 when the replay store cannot answer. Never a token, a proof or a key.

import { DESCRIPTIONS, JSON_NO_STORE, quote } from '../../../bearer/challenge.js';

/** The `error` of a DPoP challenge. */
export type DpopError = 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce';

/** Fixed public texts; the stable code goes to the rejection log. */
export const DPOP_DESCRIPTIONS = {
  proof: 'The DPoP proof is invalid',
  required: 'A DPoP-bound access token and a DPoP proof are required',
  notBound: 'The access token is not bound to a DPoP key',
  notAccepted: 'DPoP is not accepted for this access token',
  nonce: 'The resource server requires a nonce in the DPoP proof',
  unproven: DESCRIPTIONS.unproven_confirmation,
} as const;

/**
 * The two answers the stages before and after the verify give for DPoP (RFC 9449 §7.1),
 * handed to them by the dpop stage (index.ts, answers-of.ts) so a guard without DPoP bundles neither.
 *
 * @example
 * const answers: DpopAnswers = { dpopChallenge, dpopRefusal };
 */
export interface DpopAnswers {
  dpopChallenge: typeof dpopChallenge;
  dpopRefusal: typeof dpopRefusal;
}

/**
 * The `WWW-Authenticate` value of a DPoP challenge.
 *
 * @example
 * dpopChallenge('api', ['ES256', 'EdDSA'], 'invalid_dpop_proof', 'The DPoP proof is invalid');
 * // 'DPoP realm="api", error="invalid_dpop_proof", error_description="The DPoP proof is invalid", algs="ES256 EdDSA"'
 */
export function dpopChallenge(realm: string, algs: readonly string[], error?: DpopError, description?: string): string {
  const err =
    error === undefined ? '' : `, error="${error}", error_description=${quote(description ?? DPOP_DESCRIPTIONS.proof)}`;
  return `DPoP realm=${quote(realm)}${err}, algs=${quote(algs.join(' '))}`;
}

/**
 * A 401 with a DPoP challenge (and, with `bearer`, a Bearer one first, for a resource that also takes bearer tokens:
 * §7.2).
 *
 * @example
 * return dpopRefusal('api', ['ES256'], 'invalid_dpop_proof', DPOP_DESCRIPTIONS.proof);
 */
export function dpopRefusal(
  realm: string,
  algs: readonly string[],
  error: DpopError,
  description: string,
  extra: Record<string, string> = {},
): Response {
  const headers = new Headers({ ...JSON_NO_STORE, ...extra });
  headers.set('www-authenticate', dpopChallenge(realm, algs, error, description));
  return new Response(JSON.stringify({ error, error_description: description }), { status: 401, headers });
}

/**
 * 401 `use_dpop_nonce` with the nonce to use (§9).
 *
 * @example
 * return useDpopNonce('api', ['ES256'], await nonces.current(Date.now()));
 */
export function useDpopNonce(realm: string, algs: readonly string[], nonce: string): Response {
  return dpopRefusal(realm, algs, 'use_dpop_nonce', DPOP_DESCRIPTIONS.nonce, { 'dpop-nonce': nonce });
}

/**
 * 503: the replay store did not answer, so the proof cannot be known fresh (fail closed).
 *
 * @example
 * return replayUnavailable();
 */
export function replayUnavailable(): Response {
  return new Response(
    JSON.stringify({ error: 'temporarily_unavailable', error_description: 'DPoP proofs cannot be checked right now' }),
    {
      status: 503,
      headers: { ...JSON_NO_STORE, 'retry-after': '1' },
    },
  );
}
