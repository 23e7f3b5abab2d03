// Key entries from a JWK (any kty) or a CryptoKey, for the main entry's key, local and
// remote sets, signing and DPoP. An HMAC-only bundle does not reach this module
// (src/keys/secret.ts builds its entries), so it carries no RSA/EC checks and no backend.

import { backend } from '#crypto-backend';
import { MIN_RSA_BITS, SUPPORTED_ALGORITHMS, algSpec, type AlgSpec, type Engine } from '../algorithms.js';
import type { BackendKey, PublicJwk } from '../backend/types.js';
import { JwtError } from '../errors.js';
import { BackendHandle, WasmHandle, type Handle } from '../signature.js';
import { importEd25519Key } from '../wasm/ed25519-key.js';
import { EC_COORD, STRING_KEY_REASON, bad, bitLength, bytesOf } from './jwk-bytes.js';
import { checkEcPoint } from './ec-point.js';
import { checkRsaExponent, checkRsaParams } from './rsa-params.js';
import { KeyEntry, type JWK, type KeyEntryInit, type KeyInput } from './entry.js';
import { jwkFacts, octJwkEntry, secretEntry } from './secret.js';

/** Build from any accepted input; throws ERR_KEY_INVALID for input that is not a key at all. */
export function keyEntryFrom(input: KeyInput): KeyEntry {
  if (input instanceof Uint8Array) return secretEntry(input);
  if (typeof CryptoKey !== 'undefined' && input instanceof CryptoKey) return keyEntryFromCryptoKey(input);
  // The reason is fixed text: the string may be the secret itself.
  if (typeof input === 'string') throw bad(STRING_KEY_REASON);
  if (typeof input !== 'object' || input === null) throw bad('unsupported key input');
  return keyEntryFromJwk(input as JWK, true);
}

/**
 * A key entry from a JWK of any kty this library reads; throws ERR_KEY_INVALID for a
 * malformed one. `defer`: the checks that cost (EC point on its curve, RSA parameters)
 * run at the entry's first use instead (KeyEntry.sound), and its import is left to the
 * first verify: for keys a verifier holds in code, checked now only in shape and length.
 */
export function keyEntryFromJwk(jwk: JWK, defer = false): KeyEntry {
  if (jwk.kty === 'oct') return octJwkEntry(jwk);
  const common = jwkFacts(jwk);
  switch (jwk.kty) {
    case 'RSA': {
      const n = bytesOf(jwk.n, 'n');
      const e = bytesOf(jwk.e, 'e');
      if (e.length === 0 || e.length > 8) throw bad('RSA exponent out of range');
      // e = 1 (and friends) would let anyone forge RS256: refused before any backend sees the key.
      const check = once(() => checkRsaParams(n, e));
      if (!defer) check();
      const bits = bitLength(n);
      const problem =
        bits < MIN_RSA_BITS ? new JwtError('ERR_KEY_TOO_SHORT', { reason: 'RSA modulus below 2048 bits' }) : undefined;
      return new KeyEntry({
        ...common,
        kty: 'RSA',
        ...jwkImport({ kty: 'RSA', n: jwk.n!, e: jwk.e! }, Math.ceil(bits / 8), defer, check),
        ...(problem ? { problem } : {}),
      });
    }
    case 'EC': {
      const size = typeof jwk.crv === 'string' && Object.hasOwn(EC_COORD, jwk.crv) ? EC_COORD[jwk.crv]! : 0;
      if (size === 0) return new KeyEntry({ ...common, usable: false, kty: 'EC', make: cannotVerify });
      if (bytesOf(jwk.x, 'x').length !== size || bytesOf(jwk.y, 'y').length !== size) throw bad('EC coordinate length');
      // On the curve before any use, whatever the backend's import would have said (src/keys/ec-point.ts).
      // The members are read once: the check and the import see the same point.
      const point = { kty: 'EC', crv: jwk.crv!, x: jwk.x!, y: jwk.y! } as const;
      const check = once(() => checkEcPoint(point));
      if (!defer) check();
      return new KeyEntry({ ...common, kty: 'EC', crv: point.crv, ...jwkImport(point, 2 * size, defer, check) });
    }
    case 'OKP': {
      // X25519 and Ed448 keys may sit in the same set; they just never verify here.
      if (jwk.crv !== 'Ed25519') return new KeyEntry({ ...common, usable: false, kty: 'OKP', make: cannotVerify });
      const x = bytesOf(jwk.x, 'x');
      if (x.length !== 32) throw bad('Ed25519 public key must be 32 bytes');
      // The point is decompressed (and refused if it is not one) by the core's import: once.
      const imported = once(() => new WasmHandle(importEd25519Key(x)));
      return new KeyEntry({ ...common, kty: 'OKP', crv: 'Ed25519', make: imported, lazy: () => defer });
    }
    default:
      throw bad('unsupported kty');
  }
}

/** A key entry from a public CryptoKey with the `verify` usage. */
export function keyEntryFromCryptoKey(key: CryptoKey): KeyEntry {
  if (key.type === 'private') throw bad('a private CryptoKey cannot verify');
  const algo = key.algorithm as KeyAlgorithm & {
    hash?: { name: string };
    namedCurve?: string;
    modulusLength?: number;
    length?: number;
  };
  const usable = key.usages.includes('verify');
  // The CryptoKey is bound to one scheme and hash: find the algorithms it can serve.
  const engines: Record<string, Engine> = {
    HMAC: 'hmac',
    'RSASSA-PKCS1-v1_5': 'rsa-pkcs1',
    'RSA-PSS': 'rsa-pss',
    ECDSA: 'ecdsa',
    Ed25519: 'ed25519',
  };
  const engine = Object.hasOwn(engines, algo.name) ? engines[algo.name] : undefined;
  if (engine === undefined) throw bad('unsupported CryptoKey algorithm');
  const fits = SUPPORTED_ALGORITHMS.map((a) => algSpec(a)!).filter(
    // ECDSA keys are bound to a curve, RSA and HMAC keys to a hash; Ed25519 keys to neither.
    (s) =>
      s.engine === engine &&
      (engine !== 'ecdsa' || s.crv === algo.namedCurve) &&
      (engine === 'ecdsa' || engine === 'ed25519' || s.hash === algo.hash?.name),
  );
  const first = fits[0];
  if (first === undefined) throw bad('unsupported CryptoKey parameters');
  let problem: JwtError | undefined;
  let sigLength = first.sigLength;
  if (first.kty === 'RSA') {
    // The modulus is checked by the backend on import (it is not in `algorithm`).
    checkRsaExponent((algo as { publicExponent?: Uint8Array }).publicExponent);
    sigLength = Math.ceil((algo.modulusLength ?? 0) / 8);
    if ((algo.modulusLength ?? 0) < MIN_RSA_BITS)
      problem = new JwtError('ERR_KEY_TOO_SHORT', { reason: 'RSA modulus below 2048 bits' });
  }
  if (first.kty === 'oct' && (algo.length ?? 0) < first.minKeyBytes * 8) {
    problem = new JwtError('ERR_KEY_TOO_SHORT', { reason: `${first.alg} needs at least ${first.minKeyBytes} bytes` });
  }
  return new KeyEntry({
    kty: first.kty,
    ...(first.crv ? { crv: first.crv } : {}),
    // Ed25519 keys serve both names; everything else is pinned to exactly one alg.
    ...(engine === 'ed25519' ? {} : { alg: first.alg }),
    usable,
    ...(problem ? { problem } : {}),
    // An Ed25519 CryptoKey is exported at its first verify (an export can only fail asynchronously).
    lazy: (spec: AlgSpec) => spec.engine === 'ed25519',
    make: (spec: AlgSpec): Handle | Promise<Handle> =>
      spec.engine === 'ed25519'
        ? crypto.subtle.exportKey('raw', key).then((raw) => new WasmHandle(importEd25519Key(new Uint8Array(raw))))
        : backendHandle(spec, backend.importCryptoKey(spec, key), sigLength),
  });
}

function backendHandle(
  spec: AlgSpec,
  key: BackendKey | Promise<BackendKey>,
  sigLength: number,
): Handle | Promise<Handle> {
  return key instanceof Promise
    ? key.then((k) => new BackendHandle(spec, k, sigLength))
    : new BackendHandle(spec, key, sigLength);
}

/**
 * How a JWK public key (RSA, EC) makes its backend key, once `check` (its costly checks,
 * run once) has passed. It waits for the first verify when `defer`, and under WebCrypto
 * always (an import there can only fail asynchronously).
 */
function jwkImport(
  jwk: PublicJwk,
  sigLength: number,
  defer: boolean,
  check: () => void,
): Pick<KeyEntryInit, 'make' | 'lazy' | 'sound'> {
  return {
    make: (spec) => {
      check();
      return backendHandle(spec, backend.importJwk(spec, jwk), sigLength);
    },
    lazy: () => defer || backend.name === 'webcrypto',
    sound: () => {
      try {
        check();
        return true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * `fn` run at most once: later calls return its value, or throw its error again (the
 * same bytes fail the same way, so a broken key costs one check or one import). A fault
 * of the Wasm core is not the key's: it is not kept.
 */
function once<T>(fn: () => T): () => T {
  let done = false;
  let value: T;
  let error: JwtError | undefined;
  return () => {
    if (error !== undefined) throw error;
    if (done) return value;
    try {
      value = fn();
    } catch (cause) {
      const e = cause instanceof JwtError ? cause : new JwtError('ERR_KEY_INVALID', { cause });
      if (e.code !== 'ERR_WASM_CORE') error = e;
      throw e;
    }
    done = true;
    return value;
  };
}

/** The runtime form of a key that is kept only to be skipped (unusable curves): never selected, never made. */
function cannotVerify(): never {
  throw bad('this key cannot verify');
}
