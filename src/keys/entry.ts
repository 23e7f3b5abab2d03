// One verification key, with the rules applied once: kty/crv/alg must fit the token's
// algorithm, and `use`/`key_ops` must allow verification. The class knows no key format:
// whoever builds an entry (secret.ts for HMAC secrets, from-input.ts for JWKs and
// CryptoKeys) hands it the function that makes its runtime form (Wasm slot or backend
// key), created on first use, per algorithm. So an HMAC-only bundle (edgejwt/hmac)
// carries no JWK, CryptoKey or WebCrypto code.

import { jwkAlgAllows, type AlgSpec, type KeyType } from '../alg-base.js';
import { JwtError } from '../errors.js';
import type { Handle } from '../signature.js';

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

/** What an entry is built from: its JWK-level facts and how it makes its runtime form. */
export interface KeyEntryInit {
  kid?: string | undefined;
  kty: KeyType;
  crv?: string | undefined;
  alg?: string | undefined;
  usable: boolean;
  problem?: JwtError | undefined;
  fingerprint?: string | undefined;
  /** The runtime form for one algorithm; a throw that is not a JwtError becomes ERR_KEY_INVALID. */
  make: (spec: AlgSpec) => Handle | Promise<Handle>;
  /**
   * True for an algorithm whose runtime form is left to the first verify by prepare: an
   * import that can only fail asynchronously, or one that costs (a Wasm import, a
   * node:crypto key object).
   */
  lazy?: (spec: AlgSpec) => boolean;
  /**
   * False when the checks of the key's value that cost (its EC point on the curve, its
   * RSA parameters) fail: they run once, here or in `make`, whichever comes first
   * (from-input.ts). Without it the key is sound.
   */
  sound?: () => boolean;
}

const never = (): boolean => false;
const always = (): boolean => true;

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
  /**
   * The JWK's identity (kid, kty, crv, alg, use, key_ops, key members) as a string; undefined for keys not from a
   * JWK.
   */
  readonly fingerprint: string | undefined;
  /**
   * Clock ms until which a verdict this key proved may be served from a cache: the
   * freshness of the fetched set holding it (remote.ts sets it), Infinity for a key
   * held in code, -Infinity once a refresh of its set dropped it.
   */
  validUntil = Infinity;
  readonly #make: (spec: AlgSpec) => Handle | Promise<Handle>;
  readonly #lazy: (spec: AlgSpec) => boolean;
  readonly #handles = new Map<string, Handle | Promise<Handle>>();
  /**
   * False when the key's deferred checks fail (run once, here or at the first handle()):
   * a key set passes such a key over, as it passes over one that does not parse.
   */
  readonly sound: () => boolean;

  constructor(init: KeyEntryInit) {
    this.kid = init.kid;
    this.kty = init.kty;
    this.crv = init.crv;
    this.alg = init.alg;
    this.usable = init.usable;
    this.problem = init.problem;
    this.fingerprint = init.fingerprint;
    this.#make = init.make;
    this.#lazy = init.lazy ?? never;
    this.sound = init.sound ?? always;
  }

  /** kty, crv and the key's own alg all fit `spec`. */
  fits(spec: AlgSpec): boolean {
    return (
      this.usable &&
      this.kty === spec.kty &&
      (spec.crv === undefined || this.crv === spec.crv) &&
      jwkAlgAllows(this.alg, spec)
    );
  }

  /**
   * createVerifier's check of a configured key for `spec`: the cheap checks fail now (a
   * key too short; an HMAC secret's length, imported at its first verify). What costs or
   * can only fail asynchronously (the deferred check, Wasm and backend imports, Ed25519
   * CryptoKey exports) is left to the first verify that selects the key, so a request
   * for another issuer does not pay for it; Verifier.prepare does it all at once.
   */
  prepare(spec: AlgSpec): void {
    if (this.problem !== undefined) throw this.problem;
    if (this.#lazy(spec)) return;
    const h = this.handle(spec);
    if (h instanceof Promise) h.catch(() => undefined);
  }

  /** The runtime form for `spec` (imported once); a promise only while an async import runs. */
  handle(spec: AlgSpec): Handle | Promise<Handle> {
    if (this.problem !== undefined) throw this.problem;
    const known = this.#handles.get(spec.alg);
    if (known !== undefined) return known;
    let made: Handle | Promise<Handle>;
    try {
      made = this.#make(spec);
    } catch (cause) {
      throw asKeyError(cause);
    }
    if (made instanceof Promise) {
      const pending = made.then(
        (h) => {
          this.#handles.set(spec.alg, h);
          return h;
        },
        (cause: unknown) => {
          throw asKeyError(cause);
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
}

/** A failure while building a key, as the JwtError a verify reports (ERR_KEY_INVALID unless it is one already). */
function asKeyError(cause: unknown): JwtError {
  return cause instanceof JwtError ? cause : new JwtError('ERR_KEY_INVALID', { cause });
}
