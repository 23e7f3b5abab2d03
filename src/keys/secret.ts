// HMAC secrets as key entries: raw bytes or an `oct` JWK, plus the JWK members every
// key kind shares (kid, alg, use, key_ops, the fingerprint). Both entries use it: the
// main one through from-input.ts, edgejwt/hmac directly, so an HMAC-only bundle
// holds no other key kind.

import type { AlgSpec } from '../alg-base.js';
import { JwtError } from '../errors.js';
import { WasmHandle } from '../signature.js';
import { deferredHmacKey, type HmacAlg } from '../wasm/hmac-key.js';
import { KeyEntry, type JWK } from './entry.js';
import { bad, bytesOf, keyOps } from './jwk-bytes.js';
import { allowsVerify } from './jwk-fits.js';
import { PUBLIC_KEY_SECRET, isPublicKeyText } from './public-key-text.js';

/** kid, alg, usable and fingerprint of any JWK, its members type-checked (ERR_KEY_INVALID). */
export function jwkFacts(jwk: JWK): {
  kid: string | undefined;
  alg: string | undefined;
  usable: boolean;
  fingerprint: string;
} {
  if (jwk.kid !== undefined && typeof jwk.kid !== 'string') throw bad('kid is not a string');
  if (jwk.alg !== undefined && typeof jwk.alg !== 'string') throw bad('alg is not a string');
  if (jwk.use !== undefined && typeof jwk.use !== 'string') throw bad('use is not a string');
  const ops = keyOps(jwk.key_ops);
  const usable = allowsVerify(jwk, ops);
  const j = jwk as JWK & Record<string, unknown>;
  const fingerprint = JSON.stringify([jwk.kid, jwk.kty, jwk.crv, jwk.alg, jwk.use, ops, j.k, j.n, j.e, j.x, j.y]);
  return { kid: jwk.kid, alg: jwk.alg, usable, fingerprint };
}

/**
 * An HMAC secret (`secret` is the entry's own copy): checked when prepared, imported into the core at its first
 * verify.
 */
function hmacEntry(secret: Uint8Array, facts: Partial<ReturnType<typeof jwkFacts>>): KeyEntry {
  // JwtError, not jwk-bytes' `bad`: a compiled HS guard bundles no JWK code (test/node/guard-bundles.test.ts).
  if (isPublicKeyText(secret)) throw new JwtError('ERR_KEY_INVALID', { reason: PUBLIC_KEY_SECRET });
  return new KeyEntry({
    ...facts,
    usable: facts.usable ?? true,
    kty: 'oct',
    make: (spec: AlgSpec) => new WasmHandle(deferredHmacKey(secret, spec.alg as HmacAlg)),
  });
}

/**
 * A raw HMAC secret as a key entry (the bytes are copied).
 * @example
 * const entry = secretEntry(new TextEncoder().encode(secret));
 */
export function secretEntry(bytes: Uint8Array): KeyEntry {
  return hmacEntry(bytes.slice(), {});
}

/**
 * An `oct` JWK as a key entry (`k` decoded; the caller has checked `kty`).
 * @example
 * const entry = octJwkEntry({ kty: 'oct', k: 'c2VjcmV0…' });
 */
export function octJwkEntry(jwk: JWK): KeyEntry {
  const facts = jwkFacts(jwk);
  return hmacEntry(bytesOf(jwk.k, 'k'), facts);
}
