// The one table from a JWS `alg` (RFC 7518 §3, RFC 8037 §3.1, RFC 9864 for
// `Ed25519`) to everything needed to verify it. Nothing else in the library
// switches on algorithm names; backends switch on `engine`.

export type KeyType = 'oct' | 'RSA' | 'EC' | 'OKP';
export type HashName = 'SHA-256' | 'SHA-384' | 'SHA-512';
export type Engine = 'hmac' | 'ed25519' | 'rsa-pkcs1' | 'rsa-pss' | 'ecdsa';

export interface AlgSpec {
  readonly alg: string;
  readonly engine: Engine;
  readonly kty: KeyType;
  /** Required curve for EC/OKP keys. */
  readonly crv?: 'P-256' | 'P-384' | 'P-521' | 'Ed25519';
  readonly hash: HashName;
  /** Exact signature length in bytes; 0 = the RSA modulus length. */
  readonly sigLength: number;
  /**
   * Shortest secret accepted, in bytes: an HMAC key at least as long as the hash
   * output (RFC 7518 §3.2). 0 where the key's form fixes its size (RSA: MIN_RSA_BITS).
   */
  readonly minKeyBytes: number;
  /** True when the Wasm core verifies it synchronously in every runtime. */
  readonly wasm: boolean;
}

/** Digest length in bytes: the HMAC tag and minimum key length, the PSS salt length JWA fixes (RFC 7518 §3.2, §3.5). */
export const HASH_BYTES: Record<HashName, number> = { 'SHA-256': 32, 'SHA-384': 48, 'SHA-512': 64 };

function spec(alg: string, engine: Engine, kty: KeyType, hash: HashName, sigLength: number, crv?: AlgSpec['crv']): AlgSpec {
  const minKeyBytes = engine === 'hmac' ? HASH_BYTES[hash] : 0;
  const s: AlgSpec = { alg, engine, kty, hash, sigLength, minKeyBytes, wasm: engine === 'hmac' || engine === 'ed25519' };
  return Object.freeze(crv === undefined ? s : { ...s, crv });
}

/**
 * A JWS `alg` the library verifies: the type of `algorithms` in the options, so a
 * typo such as `'RS265'` is a compile error (and, from plain JavaScript, an
 * ERR_OPTIONS_INVALID at construction).
 * @example
 * const algorithms: Algorithm[] = ['RS256', 'ES256'];
 */
export type Algorithm =
  | 'HS256' | 'HS384' | 'HS512'
  | 'EdDSA' | 'Ed25519'
  | 'RS256' | 'RS384' | 'RS512'
  | 'PS256' | 'PS384' | 'PS512'
  | 'ES256' | 'ES384' | 'ES512';

// Typed by Algorithm so that the union and the table cannot drift apart.
const TABLE: Record<string, AlgSpec> = Object.freeze({
  HS256: spec('HS256', 'hmac', 'oct', 'SHA-256', 32),
  HS384: spec('HS384', 'hmac', 'oct', 'SHA-384', 48),
  HS512: spec('HS512', 'hmac', 'oct', 'SHA-512', 64),
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

/** Does a JWK `alg` value allow verifying with `spec`? EdDSA and Ed25519 name the same scheme. */
export function jwkAlgAllows(jwkAlg: string | undefined, s: AlgSpec): boolean {
  if (jwkAlg === undefined) return true;
  if (jwkAlg === s.alg) return true;
  const other = algSpec(jwkAlg);
  return other !== undefined && other.engine === 'ed25519' && s.engine === 'ed25519';
}
