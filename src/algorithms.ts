// The one table from a JWS `alg` (RFC 7518 §3, RFC 8037 §3.1, RFC 9864 for
// `Ed25519`) to everything needed to verify it: the HMAC rows of alg-base.ts and the
// rest. Nothing else in the library switches on algorithm names; backends switch on
// `engine`.

import { HMAC_SPECS, type AlgSpec, type Algorithm, type Engine, type HashName, type KeyType } from './alg-base.js';

export { jwkAlgAllows, type AlgSpec, type Algorithm, type Engine, type HashName, type KeyType } from './alg-base.js';

/** Digest length in bytes: the HMAC tag and minimum key length, the PSS salt length JWA fixes (RFC 7518 §3.2, §3.5). */
export const HASH_BYTES: Record<HashName, number> = { 'SHA-256': 32, 'SHA-384': 48, 'SHA-512': 64 };

/** A row other than HMAC's: no minimum secret (the key's form fixes its size), and only Ed25519 in the Wasm core. */
function spec(
  alg: string,
  engine: Engine,
  kty: KeyType,
  hash: HashName,
  sigLength: number,
  crv?: AlgSpec['crv'],
): AlgSpec {
  const s: AlgSpec = { alg, engine, kty, hash, sigLength, minKeyBytes: 0, wasm: engine === 'ed25519' };
  return Object.freeze(crv === undefined ? s : { ...s, crv });
}

// Typed by Algorithm so that the union and the table cannot drift apart.
const TABLE: Record<string, AlgSpec> = Object.freeze({
  ...HMAC_SPECS,
  EdDSA: spec('EdDSA', 'ed25519', 'OKP', 'SHA-512', 64, 'Ed25519'),
  Ed25519: spec('Ed25519', 'ed25519', 'OKP', 'SHA-512', 64, 'Ed25519'),
  RS256: spec('RS256', 'rsa-pkcs1', 'RSA', 'SHA-256', 0),
  RS384: spec('RS384', 'rsa-pkcs1', 'RSA', 'SHA-384', 0),
  RS512: spec('RS512', 'rsa-pkcs1', 'RSA', 'SHA-512', 0),
  PS256: spec('PS256', 'rsa-pss', 'RSA', 'SHA-256', 0),
  PS384: spec('PS384', 'rsa-pss', 'RSA', 'SHA-384', 0),
  PS512: spec('PS512', 'rsa-pss', 'RSA', 'SHA-512', 0),
  ES256: spec('ES256', 'ecdsa', 'EC', 'SHA-256', 64, 'P-256'),
  ES384: spec('ES384', 'ecdsa', 'EC', 'SHA-384', 96, 'P-384'),
  ES512: spec('ES512', 'ecdsa', 'EC', 'SHA-512', 132, 'P-521'),
} satisfies Record<Algorithm, AlgSpec>);

/**
 * Every `alg` a verifier accepts in `algorithms`.
 *
 * @example
 * SUPPORTED_ALGORITHMS.includes('EdDSA'); // true
 * SUPPORTED_ALGORITHMS.includes('none'); // false: never an algorithm here
 */
export const SUPPORTED_ALGORITHMS: readonly string[] = Object.freeze(Object.keys(TABLE));

/** The spec for `alg`, or undefined for anything not in the table (including `none`). */
export function algSpec(alg: string): AlgSpec | undefined {
  return Object.hasOwn(TABLE, alg) ? TABLE[alg] : undefined;
}

/** Minimum RSA modulus (RFC 7518 §3.3 requires 2048 bits). */
export const MIN_RSA_BITS = 2048;
