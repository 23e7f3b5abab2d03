// One verification key (from a JWK, raw secret bytes, or a CryptoKey), with the
// JWK rules applied once: kty/crv/alg must fit the token's algorithm, `use` and
// `key_ops` must allow verification, RSA moduli below 2048 bits are refused.
// Runtime forms (Wasm slot or backend key) are created on first use, per algorithm.

import { backend } from '#crypto-backend';
import { MIN_RSA_BITS, SUPPORTED_ALGORITHMS, algSpec, jwkAlgAllows, type AlgSpec, type Engine, type KeyType } from '../algorithms.js';
import type { BackendKey, PublicJwk } from '../backend/types.js';
import { JwtError } from '../errors.js';
import { BackendHandle, WasmHandle, type Handle } from '../signature.js';
import { deferredHmacKey, importEd25519Key, type HmacAlg } from '../wasm/keys.js';
import { EC_COORD, STRING_KEY_REASON, bad, bitLength, bytesOf, keyOps } from './jwk-bytes.js';
import { checkEcPoint } from './ec-point.js';
import { checkRsaExponent, checkRsaParams } from './rsa-params.js';

/**
 * A JSON Web Key (RFC 7517) as accepted here; private members are ignored.
 *
 * @example
 * const jwk: JWK = { kty: 'OKP', crv: 'Ed25519', kid: 'k1', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };
 */
export interface JWK {
  kty?: string;
  kid?: string;
  alg?: string;
  use?: string;
  key_ops?: string[];
  k?: string;
  n?: string;
  e?: string;
  crv?: string;
  x?: string;
  y?: string;
}

/**
 * One key for `key` in createVerifier: a public JWK, raw HMAC secret bytes, or a
 * CryptoKey (public, with the `verify` usage).
 *
 * @example
 * const key: KeyInput = new TextEncoder().encode(process.env.JWT_SECRET); // HS256 needs at least 32 bytes
 */
export type KeyInput = JWK | Uint8Array | CryptoKey;

type Material =
  | { t: 'secret'; secret: Uint8Array }
  | { t: 'okp'; x: Uint8Array }
  | { t: 'jwk'; jwk: PublicJwk; sigLength: number }
  | { t: 'crypto'; key: CryptoKey; sigLength: number };

export class KeyEntry {
  readonly kid: string | undefined;
  readonly kty: KeyType;
  readonly crv: string | undefined;
  /** The JWK `alg` (or the algorithm a CryptoKey is bound to), if any. */
  readonly alg: string | undefined;
  /** False when `use`/`key_ops`/`alg` rule out JWS verification. */
  readonly usable: boolean;
  /** Set when the key must never verify (too short); raised when the key is selected. */
  readonly problem: JwtError | undefined;
  /** The JWK's identity (kid, kty, crv, alg, use, key_ops, key members) as a string; undefined for keys not from a JWK. */
  readonly fingerprint: string | undefined;
  /**
   * Clock ms until which a verdict this key proved may be served from a cache: the
   * freshness of the fetched set holding it (remote.ts sets it), Infinity for a key
   * held in code, -Infinity once a refresh of its set dropped it.
   */
  validUntil = Infinity;
  readonly #material: Material;
  readonly #handles = new Map<string, Handle | Promise<Handle>>();

  private constructor(init: { kid?: string; kty: KeyType; crv?: string; alg?: string; usable: boolean; problem?: JwtError; material: Material; fingerprint?: string }) {
    this.kid = init.kid;
    this.kty = init.kty;
    this.crv = init.crv;
    this.alg = init.alg;
    this.usable = init.usable;
    this.problem = init.problem;
    this.fingerprint = init.fingerprint;
    this.#material = init.material;
  }

  /** Build from any accepted input; throws ERR_KEY_INVALID for input that is not a key at all. */
  static from(input: KeyInput): KeyEntry {
    if (input instanceof Uint8Array) {
      return new KeyEntry({ kty: 'oct', usable: true, material: { t: 'secret', secret: input.slice() } });
    }
    if (typeof CryptoKey !== 'undefined' && input instanceof CryptoKey) return KeyEntry.fromCryptoKey(input);
    // The reason is fixed text: the string may be the secret itself.
    if (typeof input === 'string') throw bad(STRING_KEY_REASON);
    if (typeof input !== 'object' || input === null) throw bad('unsupported key input');
    return KeyEntry.fromJwk(input as JWK);
  }

  static fromJwk(jwk: JWK): KeyEntry {
    if (jwk.kid !== undefined && typeof jwk.kid !== 'string') throw bad('kid is not a string');
    if (jwk.alg !== undefined && typeof jwk.alg !== 'string') throw bad('alg is not a string');
    if (jwk.use !== undefined && typeof jwk.use !== 'string') throw bad('use is not a string');
    const ops = keyOps(jwk.key_ops);
    // RFC 7517 §4.2/4.3: a key for encryption, or whose operations exclude verify, never verifies.
    const usable =
      (jwk.use === undefined || jwk.use === 'sig') &&
      (ops === undefined || ops.includes('verify')) &&
      (jwk.alg === undefined || algSpec(jwk.alg) !== undefined);
    const j = jwk as JWK & Record<string, unknown>;
    const fingerprint = JSON.stringify([jwk.kid, jwk.kty, jwk.crv, jwk.alg, jwk.use, ops, j.k, j.n, j.e, j.x, j.y]);
    const common = { kid: jwk.kid, alg: jwk.alg, usable, fingerprint };
    switch (jwk.kty) {
      case 'oct':
        return new KeyEntry({ ...common, kty: 'oct', material: { t: 'secret', secret: bytesOf(jwk.k, 'k') } });
      case 'RSA': {
        const n = bytesOf(jwk.n, 'n');
        const e = bytesOf(jwk.e, 'e');
        if (e.length === 0 || e.length > 8) throw bad('RSA exponent out of range');
        // e = 1 (and friends) would let anyone forge RS256: refused before any backend sees the key.
        checkRsaParams(n, e);
        const bits = bitLength(n);
        const problem = bits < MIN_RSA_BITS ? new JwtError('ERR_KEY_TOO_SHORT', { reason: 'RSA modulus below 2048 bits' }) : undefined;
        const material: Material = { t: 'jwk', jwk: { kty: 'RSA', n: jwk.n!, e: jwk.e! }, sigLength: Math.ceil(bits / 8) };
        return new KeyEntry({ ...common, kty: 'RSA', material, ...(problem ? { problem } : {}) });
      }
      case 'EC': {
        const size = typeof jwk.crv === 'string' && Object.hasOwn(EC_COORD, jwk.crv) ? EC_COORD[jwk.crv]! : 0;
        if (size === 0) return new KeyEntry({ ...common, usable: false, kty: 'EC', material: { t: 'secret', secret: new Uint8Array(0) } });
        if (bytesOf(jwk.x, 'x').length !== size || bytesOf(jwk.y, 'y').length !== size) throw bad('EC coordinate length');
        // On the curve now, whatever the backend's import would have said (src/keys/ec-point.ts).
        checkEcPoint(jwk);
        const material: Material = { t: 'jwk', jwk: { kty: 'EC', crv: jwk.crv!, x: jwk.x!, y: jwk.y! }, sigLength: 2 * size };
        return new KeyEntry({ ...common, kty: 'EC', crv: jwk.crv!, material });
      }
      case 'OKP': {
        // X25519 and Ed448 keys may sit in the same set; they just never verify here.
        if (jwk.crv !== 'Ed25519') return new KeyEntry({ ...common, usable: false, kty: 'OKP', material: { t: 'secret', secret: new Uint8Array(0) } });
        const x = bytesOf(jwk.x, 'x');
        if (x.length !== 32) throw bad('Ed25519 public key must be 32 bytes');
        return new KeyEntry({ ...common, kty: 'OKP', crv: 'Ed25519', material: { t: 'okp', x } });
      }
      default:
        throw bad('unsupported kty');
    }
  }

  static fromCryptoKey(key: CryptoKey): KeyEntry {
    if (key.type === 'private') throw bad('a private CryptoKey cannot verify');
    const algo = key.algorithm as KeyAlgorithm & { hash?: { name: string }; namedCurve?: string; modulusLength?: number; length?: number };
    const usable = key.usages.includes('verify');
    // The CryptoKey is bound to one scheme and hash: find the algorithms it can serve.
    const engines: Record<string, Engine> = { HMAC: 'hmac', 'RSASSA-PKCS1-v1_5': 'rsa-pkcs1', 'RSA-PSS': 'rsa-pss', ECDSA: 'ecdsa', Ed25519: 'ed25519' };
    const engine = Object.hasOwn(engines, algo.name) ? engines[algo.name] : undefined;
    if (engine === undefined) throw bad('unsupported CryptoKey algorithm');
    const fits = SUPPORTED_ALGORITHMS.map((a) => algSpec(a)!).filter(
      // ECDSA keys are bound to a curve, RSA and HMAC keys to a hash; Ed25519 keys to neither.
      (s) => s.engine === engine && (engine !== 'ecdsa' || s.crv === algo.namedCurve) && (engine === 'ecdsa' || engine === 'ed25519' || s.hash === algo.hash?.name),
    );
    const first = fits[0];
    if (first === undefined) throw bad('unsupported CryptoKey parameters');
    let problem: JwtError | undefined;
    let sigLength = first.sigLength;
    if (first.kty === 'RSA') {
      // The modulus is checked by the backend on import (it is not in `algorithm`).
      checkRsaExponent((algo as { publicExponent?: Uint8Array }).publicExponent);
      sigLength = Math.ceil((algo.modulusLength ?? 0) / 8);
      if ((algo.modulusLength ?? 0) < MIN_RSA_BITS) problem = new JwtError('ERR_KEY_TOO_SHORT', { reason: 'RSA modulus below 2048 bits' });
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
      material: { t: 'crypto', key, sigLength },
    });
  }

  /** kty, crv and the key's own alg all fit `spec`. */
  fits(spec: AlgSpec): boolean {
    return this.usable && this.kty === spec.kty && (spec.crv === undefined || this.crv === spec.crv) && jwkAlgAllows(this.alg, spec);
  }

  /**
   * createVerifier's check of a configured key for `spec`: everything that can fail
   * synchronously fails now (HMAC secrets are checked here and imported at their first
   * verify). An import that can only fail asynchronously (WebCrypto JWK imports, Ed25519
   * CryptoKey exports) reports at the first verify either way, so it starts there:
   * a request for another issuer does not pay for it.
   */
  prepare(spec: AlgSpec): void {
    if (this.problem !== undefined) throw this.problem;
    const m = this.#material;
    if ((m.t === 'jwk' && backend.name === 'webcrypto') || (m.t === 'crypto' && spec.engine === 'ed25519')) return;
    const h = this.handle(spec);
    if (h instanceof Promise) h.catch(() => undefined);
  }

  /** The runtime form for `spec` (imported once); a promise only while an async import runs. */
  handle(spec: AlgSpec): Handle | Promise<Handle> {
    if (this.problem !== undefined) throw this.problem;
    const known = this.#handles.get(spec.alg);
    if (known !== undefined) return known;
    const made = this.#make(spec);
    if (made instanceof Promise) {
      const pending = made.then(
        (h) => {
          this.#handles.set(spec.alg, h);
          return h;
        },
        (cause: unknown) => {
          throw cause instanceof JwtError ? cause : new JwtError('ERR_KEY_INVALID', { cause });
        },
      );
      // Failed imports are remembered too (the same bytes fail the same way); never unhandled.
      pending.catch(() => undefined);
      this.#handles.set(spec.alg, pending);
      return pending;
    }
    this.#handles.set(spec.alg, made);
    return made;
  }

  #make(spec: AlgSpec): Handle | Promise<Handle> {
    const m = this.#material;
    try {
      switch (m.t) {
        case 'secret':
          // Checked now, imported into the core at its first verify (m.secret is this entry's own copy).
          return new WasmHandle(deferredHmacKey(m.secret, spec.alg as HmacAlg));
        case 'okp':
          return new WasmHandle(importEd25519Key(m.x));
        case 'jwk':
          return backendHandle(spec, backend.importJwk(spec, m.jwk), m.sigLength);
        case 'crypto':
          if (spec.engine === 'ed25519') {
            return crypto.subtle.exportKey('raw', m.key).then((raw) => new WasmHandle(importEd25519Key(new Uint8Array(raw))));
          }
          return backendHandle(spec, backend.importCryptoKey(spec, m.key), m.sigLength);
      }
    } catch (cause) {
      throw cause instanceof JwtError ? cause : new JwtError('ERR_KEY_INVALID', { cause });
    }
  }
}

function backendHandle(spec: AlgSpec, key: BackendKey | Promise<BackendKey>, sigLength: number): Handle | Promise<Handle> {
  return key instanceof Promise ? key.then((k) => new BackendHandle(spec, k, sigLength)) : new BackendHandle(spec, key, sigLength);
}
