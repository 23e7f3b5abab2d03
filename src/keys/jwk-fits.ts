// What a JWK's members alone say about verifying with it: no key material is read and
// nothing is imported, so a configuration can be checked at start for the price of a
// few string comparisons (the guard refuses an inline key set no allowed algorithm can use).

import { isAlgorithm, jwkAlgAllows, type AlgSpec } from '../alg-base.js';
import type { JWK } from './entry.js';
import { keyOps } from './jwk-bytes.js';

/**
 * RFC 7517 §4.2/4.3: a key for encryption, one whose `key_ops` exclude verify, or one
 * whose `alg` is no signature algorithm here never verifies. `ops`: its checked key_ops.
 *
 * @example
 * allowsVerify({ kty: 'RSA', use: 'enc' }, undefined); // false
 */
export function allowsVerify(jwk: Pick<JWK, 'use' | 'alg'>, ops: readonly string[] | undefined): boolean {
  return (
    (jwk.use === undefined || jwk.use === 'sig') &&
    (ops === undefined || ops.includes('verify')) &&
    (jwk.alg === undefined || isAlgorithm(jwk.alg))
  );
}

/**
 * True when `jwk` could verify a token of one of `specs`, by kty, crv, alg, use and
 * key_ops alone; false for anything a key set would skip on those grounds (members of
 * the wrong type included).
 *
 * @example
 * jwkCouldVerify({ kty: 'EC', crv: 'P-384', x: '…', y: '…' }, [algSpec('ES256')!]); // false: the curve
 */
export function jwkCouldVerify(jwk: unknown, specs: readonly AlgSpec[]): boolean {
  if (typeof jwk !== 'object' || jwk === null) return false;
  const j = jwk as Record<string, unknown>;
  for (const m of ['kty', 'crv', 'alg', 'use'] as const)
    if (j[m] !== undefined && typeof j[m] !== 'string') return false;
  let ops: readonly string[] | undefined;
  try {
    ops = keyOps(j.key_ops);
  } catch {
    return false;
  }
  const { kty, crv, alg } = j as Pick<JWK, 'kty' | 'crv' | 'alg'>;
  if (!allowsVerify(j as Pick<JWK, 'use' | 'alg'>, ops)) return false;
  return specs.some((s) => kty === s.kty && (s.crv === undefined || crv === s.crv) && jwkAlgAllows(alg, s));
}
