// edgejwt/hmac's key source: one HMAC secret, as bytes or an `oct` JWK, for HS256/384/512
// only. Everything else is refused as an option error that points to the main entry, so
// this module (and a bundle built on it) never reaches JWK, CryptoKey or key-set code.

import { hmacSpec, type AlgSpec } from '../alg-base.js';
import type { JWK } from '../keys/entry.js';
import { STRING_KEY_REASON, bad } from '../keys/jwk-bytes.js';
import { octJwkEntry, secretEntry } from '../keys/secret.js';
import { singleKey } from '../keys/single.js';
import type { KeySource } from '../keys/source.js';
import { policyWith, type Policy, type PolicyInput } from '../options.js';
import { optionsError } from '../options-error.js';

/**
 * The reason every refusal of edgejwt/hmac gives (HS256/384/512, one key as bytes or an oct JWK): the option is fine,
 * but only the main entry takes it.
 */
export const NEEDS_MAIN_ENTRY = "only the main entry ('edgejwt') takes this";

function hmacSource(o: PolicyInput, specs: AlgSpec[]): KeySource {
  if (o.jwks !== undefined) throw optionsError('jwks', NEEDS_MAIN_ENTRY);
  // hmacSpec has no spec for the other algorithms (policyWith checked every name is one the library verifies).
  if (specs.length !== o.algorithms.length) throw optionsError('algorithms', NEEDS_MAIN_ENTRY);
  const key: unknown = o.key;
  if (key instanceof Uint8Array) return singleKey(secretEntry(key), specs);
  // As the main entry: a string is never a key (fixed reason: it may be the secret itself).
  if (typeof key === 'string') throw bad(STRING_KEY_REASON);
  if (typeof key !== 'object' || key === null) throw bad('unsupported key input');
  if ((typeof CryptoKey !== 'undefined' && key instanceof CryptoKey) || (key as JWK).kty !== 'oct')
    throw optionsError('key', NEEDS_MAIN_ENTRY);
  return singleKey(octJwkEntry(key as JWK), specs);
}

/**
 * A policy for edgejwt/hmac: the main entry's checks (algorithms, claims) with hmacSource's keys.
 * @example
 * const policy = hmacPolicy({ algorithms: ['HS256'], key: secretBytes }, {});
 */
export function hmacPolicy(o: PolicyInput, defaults: Partial<PolicyInput>): Policy {
  return policyWith(o, defaults, hmacSource, hmacSpec);
}
