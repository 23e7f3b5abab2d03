// What every algorithm lookup shares: the shape of an algorithm's spec, the names the
// library verifies, and the HMAC rows. algorithms.ts adds the other rows to make the
// one table (RFC 7518 §3, RFC 8037 §3.1, RFC 9864 for `Ed25519`); edgejwt/hmac looks up
// only the HMAC rows here, so its bundle carries no RSA, EC or Ed25519 row.

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

/** Every `alg` the library verifies, in the order SUPPORTED_ALGORITHMS lists them. */
const NAMES = [
  'HS256',
  'HS384',
  'HS512',
  'EdDSA',
  'Ed25519',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
] as const;

/**
 * A JWS `alg` the library verifies: the type of `algorithms` in the options, so a
 * typo such as `'RS265'` is a compile error (and, from plain JavaScript, an
 * ERR_OPTIONS_INVALID at construction).
 * @example
 * const algorithms: Algorithm[] = ['RS256', 'ES256'];
 */
export type Algorithm = (typeof NAMES)[number];

/**
 * Is `alg` one the library verifies (in any entry)? `none` never is.
 * @example
 * isAlgorithm('ES256'); // true
 * isAlgorithm('none'); // false
 */
export function isAlgorithm(alg: string): alg is Algorithm {
  return (NAMES as readonly string[]).includes(alg);
}

/** An HMAC row: the tag is the whole MAC, and the key at least as long (RFC 7518 §3.2). */
function hmacRow(alg: string, hash: HashName, bytes: number): AlgSpec {
  return Object.freeze({ alg, engine: 'hmac', kty: 'oct', hash, sigLength: bytes, minKeyBytes: bytes, wasm: true });
}

/** The HMAC rows (RFC 7518 §3.2). */
export const HMAC_SPECS = {
  HS256: hmacRow('HS256', 'SHA-256', 32),
  HS384: hmacRow('HS384', 'SHA-384', 48),
  HS512: hmacRow('HS512', 'SHA-512', 64),
} as const satisfies Record<Extract<Algorithm, `HS${string}`>, AlgSpec>;

/**
 * The spec for `alg` when it is HS256, HS384 or HS512; undefined for anything else.
 * @example
 * hmacSpec('HS384')?.sigLength; // 48
 * hmacSpec('RS256'); // undefined
 */
export function hmacSpec(alg: string): AlgSpec | undefined {
  return Object.hasOwn(HMAC_SPECS, alg) ? HMAC_SPECS[alg as keyof typeof HMAC_SPECS] : undefined;
}

/**
 * Does a JWK `alg` value allow verifying with `s`? EdDSA and Ed25519 name the same scheme.
 * @example
 * jwkAlgAllows('EdDSA', algSpec('Ed25519')!); // true
 * jwkAlgAllows('HS384', algSpec('HS256')!); // false
 */
export function jwkAlgAllows(jwkAlg: string | undefined, s: AlgSpec): boolean {
  if (jwkAlg === undefined) return true;
  if (jwkAlg === s.alg) return true;
  return s.engine === 'ed25519' && (jwkAlg === 'EdDSA' || jwkAlg === 'Ed25519');
}
