// The signing key behind createSigner, checked as the verifier checks its keys:
// kty/crv/alg must fit, `use`/`key_ops` must allow signing, HMAC secrets have the
// RFC 7518 §3.2 minimum length, RSA moduli are at least 2048 bits, EC points are on
// their curve, and a private JWK's public part must belong to it (key-pair.ts).
// HMAC secrets go into a Wasm key slot; every other key goes to the signing backend.

import { signBackend } from '#crypto-backend';
import { MIN_RSA_BITS, jwkAlgAllows, type AlgSpec } from '../algorithms.js';
import type { SignKey } from '../backend/sign-types.js';
import { JwtError } from '../errors.js';
import { checkEcPoint } from '../keys/ec-point.js';
import { PUBLIC_KEY_SECRET, isPublicKeyText } from '../keys/public-key-text.js';
import { EC_COORD, STRING_KEY_REASON, bad, bitLength, bytesOf, keyOps } from '../keys/jwk-bytes.js';
import { checkRsaExponent, checkRsaJwk, checkRsaParams } from '../keys/rsa-params.js';
import { importHmacKey, type HmacAlg } from '../wasm/hmac-key.js';
import type { WasmKey } from '../wasm/key-slot.js';
import { matchedKeyPair } from './key-pair.js';

/**
 * A signing key: HMAC secret bytes, a private JWK, a CryptoKey (private, or HMAC),
 * or, under the `node` condition, a PEM private key string or a node:crypto KeyObject.
 */
export type SignerKeyInput = Uint8Array | PrivateJWK | CryptoKey | string | object;

/** A private JSON Web Key (RFC 7517) as accepted for signing. */
export interface PrivateJWK {
  kty: string;
  kid?: string;
  alg?: string;
  use?: string;
  key_ops?: string[];
  k?: string;
  crv?: string;
  x?: string;
  y?: string;
  d?: string;
  n?: string;
  e?: string;
  p?: string;
  q?: string;
  dp?: string;
  dq?: string;
  qi?: string;
}

/** Where a signature comes from: a Wasm HMAC slot, or a backend key (a promise while WebCrypto imports it). */
export type SigningKey = { readonly wasm: WasmKey } | { readonly wasm?: undefined; key: SignKey | Promise<SignKey> };

// node:crypto's names for the JOSE curves.
const NODE_CURVE: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };
const MIN_HMAC_BYTES: Record<string, number> = { 'SHA-256': 32, 'SHA-384': 48, 'SHA-512': 64 };

function isCryptoKey(v: unknown): v is CryptoKey {
  return typeof CryptoKey !== 'undefined' && v instanceof CryptoKey;
}

/** A node:crypto KeyObject, recognised without importing node:crypto here. */
function isKeyObject(v: unknown): boolean {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { export?: unknown }).export === 'function' &&
    typeof (v as { type?: unknown }).type === 'string'
  );
}

function settle(key: SignKey | Promise<SignKey>): SignKey | Promise<SignKey> {
  if (!(key instanceof Promise)) return key;
  const p = key.then(undefined, (cause: unknown) => {
    throw cause instanceof JwtError
      ? cause
      : new JwtError('ERR_KEY_INVALID', { reason: 'the key could not be imported' });
  });
  // Reported at the first sign; never an unhandled rejection meanwhile.
  p.catch(() => undefined);
  return p;
}

function hmacFromSecret(spec: AlgSpec, secret: Uint8Array): SigningKey {
  // As for verifying keys (src/keys/secret.ts): a MAC under a published key proves nothing.
  if (isPublicKeyText(secret)) throw new JwtError('ERR_KEY_INVALID', { reason: PUBLIC_KEY_SECRET });
  return { wasm: importHmacKey(secret, spec.alg as HmacAlg) };
}

function checkJwk(spec: AlgSpec, jwk: PrivateJWK): void {
  if (jwk.alg !== undefined && (typeof jwk.alg !== 'string' || !jwkAlgAllows(jwk.alg, spec)))
    throw new JwtError('ERR_KEY_ALG_MISMATCH');
  if (jwk.use !== undefined && jwk.use !== 'sig') throw bad('use rules out signing');
  const ops = keyOps(jwk.key_ops);
  if (ops !== undefined && !ops.includes('sign')) throw bad('key_ops rules out signing');
  if (jwk.kty !== spec.kty) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'kty does not fit the algorithm' });
  if (spec.kty === 'oct') return;
  if (spec.crv !== undefined && jwk.crv !== spec.crv)
    throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'curve does not fit the algorithm' });
  if (jwk.d === undefined) throw bad('not a private key (no d)');
  const d = bytesOf(jwk.d, 'd');
  if (spec.kty === 'RSA') {
    const n = bytesOf(jwk.n, 'n');
    if (bitLength(n) < MIN_RSA_BITS) throw new JwtError('ERR_KEY_TOO_SHORT', { reason: 'RSA modulus below 2048 bits' });
    // The same public-parameter rules as a verifying key: e = 1 or an even e or n is refused.
    checkRsaParams(n, bytesOf(jwk.e, 'e'));
    // Checked here because JWK importers differ: some skip characters they do not know.
    for (const m of ['p', 'q', 'dp', 'dq', 'qi'] as const) if (jwk[m] !== undefined) bytesOf(jwk[m], m);
  } else if (spec.kty === 'EC') {
    const size = EC_COORD[spec.crv!]!;
    if (bytesOf(jwk.x, 'x').length !== size || bytesOf(jwk.y, 'y').length !== size || d.length !== size)
      throw bad('EC coordinate length');
    checkEcPoint(jwk);
  } else if (bytesOf(jwk.x, 'x').length !== 32 || d.length !== 32) {
    throw bad('Ed25519 keys are 32 bytes');
  }
}

function checkCryptoKey(spec: AlgSpec, key: CryptoKey): void {
  const a = key.algorithm as KeyAlgorithm & {
    hash?: { name: string };
    namedCurve?: string;
    modulusLength?: number;
    length?: number;
  };
  if (!key.usages.includes('sign')) throw bad('the CryptoKey does not allow sign');
  const names: Record<string, string> = {
    hmac: 'HMAC',
    'rsa-pkcs1': 'RSASSA-PKCS1-v1_5',
    'rsa-pss': 'RSA-PSS',
    ecdsa: 'ECDSA',
    ed25519: 'Ed25519',
  };
  if (a.name !== names[spec.engine]) throw new JwtError('ERR_KEY_ALG_MISMATCH');
  if (spec.engine === 'hmac') {
    if (a.hash?.name !== spec.hash) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'HMAC hash does not fit' });
    if ((a.length ?? 0) < MIN_HMAC_BYTES[spec.hash]! * 8) throw new JwtError('ERR_KEY_TOO_SHORT');
    return;
  }
  if (key.type !== 'private') throw bad('not a private key');
  if (spec.kty === 'RSA') {
    if (a.hash?.name !== spec.hash) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'RSA hash does not fit' });
    if ((a.modulusLength ?? 0) < MIN_RSA_BITS)
      throw new JwtError('ERR_KEY_TOO_SHORT', { reason: 'RSA modulus below 2048 bits' });
    checkRsaExponent((a as { publicExponent?: Uint8Array }).publicExponent);
  }
  if (spec.engine === 'ecdsa' && a.namedCurve !== spec.crv)
    throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'curve does not fit' });
}

/** PEM strings and KeyObjects: imported by node:crypto at once, then held to the same rules. */
function checkNative(spec: AlgSpec, key: SignKey): void {
  const d = signBackend.describe(key);
  if (d === undefined) throw bad('unrecognised key');
  if (spec.kty === 'oct') {
    if (d.type !== 'secret') throw new JwtError('ERR_KEY_ALG_MISMATCH');
    if ((d.bits ?? 0) < MIN_HMAC_BYTES[spec.hash]! * 8) throw new JwtError('ERR_KEY_TOO_SHORT');
    return;
  }
  if (d.type === 'public' || d.type === 'secret') throw bad('not a private key');
  const fits =
    (spec.engine === 'rsa-pkcs1' && d.type === 'rsa') ||
    (spec.engine === 'rsa-pss' && (d.type === 'rsa' || d.type === 'rsa-pss')) ||
    (spec.engine === 'ecdsa' && d.type === 'ec' && NODE_CURVE[d.curve ?? ''] === spec.crv) ||
    (spec.engine === 'ed25519' && d.type === 'ed25519');
  if (!fits) throw new JwtError('ERR_KEY_ALG_MISMATCH');
  if (spec.kty === 'RSA') {
    if ((d.bits ?? 0) < MIN_RSA_BITS)
      throw new JwtError('ERR_KEY_TOO_SHORT', { reason: 'RSA modulus below 2048 bits' });
    checkRsaJwk(d.rsa ?? {});
  }
}

/** Resolve and check `input` for `spec`; throws the key errors the verifier would. */
export function signingKey(spec: AlgSpec, input: SignerKeyInput): SigningKey {
  if (input instanceof Uint8Array) {
    if (spec.engine !== 'hmac') throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'raw bytes are an HMAC secret' });
    return hmacFromSecret(spec, input);
  }
  if (isCryptoKey(input)) {
    checkCryptoKey(spec, input);
    return { key: settle(signBackend.importPrivate(spec, input)) };
  }
  // A string for HS* would be read as PEM under node and fail there; say what to pass instead.
  if (typeof input === 'string' && spec.engine === 'hmac') throw bad(STRING_KEY_REASON);
  if (typeof input === 'string' || isKeyObject(input)) {
    if (signBackend.name !== 'node')
      throw bad('PEM strings and KeyObjects need the node condition; pass a JWK or CryptoKey');
    let key: SignKey;
    try {
      key = signBackend.importPrivate(spec, input) as SignKey;
    } catch {
      throw bad('the key could not be read');
    }
    checkNative(spec, key);
    return { key };
  }
  if (typeof input !== 'object' || input === null) throw bad('unsupported key input');
  const jwk = input as PrivateJWK;
  checkJwk(spec, jwk);
  if (spec.kty === 'oct') return hmacFromSecret(spec, bytesOf(jwk.k, 'k'));
  // Only the members a private key needs reach the backend.
  const { kty, crv, x, y, d, n, e, p, q, dp, dq, qi } = jwk;
  const clean = Object.fromEntries(
    Object.entries({ kty, crv, x, y, d, n, e, p, q, dp, dq, qi }).filter(([, v]) => v !== undefined),
  );
  let key: SignKey | Promise<SignKey>;
  try {
    key = signBackend.importPrivate(spec, clean);
  } catch {
    throw bad('the key could not be imported');
  }
  // The public part must belong to the private key (src/sign/key-pair.ts).
  try {
    key = matchedKeyPair(spec, key, clean);
  } catch (cause) {
    throw cause instanceof JwtError ? cause : bad('the key could not be used to sign');
  }
  return { key: settle(key) };
}
