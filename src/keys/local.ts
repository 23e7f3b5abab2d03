// A key set held in memory (RFC 7517 §5). Keys that cannot verify JWS (encryption
// keys, unknown kty or curves) are kept out; a set that is not a JWKS is an error.

import type { AlgSpec } from '../algorithms.js';
import { JwtError } from '../errors.js';
import type { KeyEntry, JWK } from './entry.js';
import { keyEntryFromJwk } from './from-input.js';
import { KEY_SOURCE, pick, type KeySource } from './source.js';
import { checkOptionNames, type OptionNames } from '../option-names.js';

/**
 * A JSON Web Key Set (RFC 7517 §5).
 *
 * @example
 * const jwks: JSONWebKeySet = await (await fetch(jwksUrl)).json();
 */
export interface JSONWebKeySet {
  keys: JWK[];
}

/**
 * Options of createLocalJWKSet.
 *
 * @example
 * createLocalJWKSet(jwks, { allowHmac: false }); // public keys only
 */
export interface LocalSetOptions {
  /** Accept `kty: "oct"` (HMAC) keys from the set. On by default for a set you hold in code; remote sets default to off. */
  allowHmac?: boolean;
}

/** The names createLocalJWKSet accepts: checkOptionNames refuses any other (a misspelt option would turn a check off). */
export const LOCAL_SET_OPTION_NAMES = { allowHmac: true } as const satisfies OptionNames<LocalSetOptions>;

const MAX_JWKS_KEYS = 100;

/**
 * Parse a JWKS object into key entries, skipping keys that cannot verify. `defer`: the
 * checks that cost run when a token first selects a key (keyEntryFromJwk), and one that
 * fails then is passed over as one that did not parse (pick in source.ts).
 */
export function parseJwks(jwks: unknown, defer = false): KeyEntry[] {
  if (typeof jwks !== 'object' || jwks === null || !Array.isArray((jwks as JSONWebKeySet).keys)) {
    throw new JwtError('ERR_JWKS_INVALID', { reason: 'expected an object with a keys array' });
  }
  const list = (jwks as JSONWebKeySet).keys;
  if (list.length > MAX_JWKS_KEYS) throw new JwtError('ERR_JWKS_INVALID', { reason: 'too many keys' });
  const out: KeyEntry[] = [];
  for (const jwk of list) {
    if (typeof jwk !== 'object' || jwk === null) throw new JwtError('ERR_JWKS_INVALID', { reason: 'a key is not an object' });
    try {
      const entry = keyEntryFromJwk(jwk, defer);
      if (entry.usable) out.push(entry);
    } catch (cause) {
      // One malformed key must not take the whole set down (issuers publish odd keys).
      if (!(cause instanceof JwtError)) throw cause;
    }
  }
  return out;
}

/**
 * A key set held in memory (build it with createLocalJWKSet). Keys that cannot
 * verify JWS are left out; a token's `kid` picks the key, and without a `kid`
 * exactly one key of the right type must fit.
 *
 * @example
 * const set: LocalJWKSet = createLocalJWKSet({ keys: [publicJwk] });
 */
export class LocalJWKSet implements KeySource {
  readonly [KEY_SOURCE] = true as const;
  readonly #keys: KeyEntry[];
  readonly #allowHmac: boolean;

  constructor(jwks: JSONWebKeySet, options: LocalSetOptions = {}) {
    checkOptionNames(options, LOCAL_SET_OPTION_NAMES);
    // Held in code: each key's costly checks and import wait for the first token that selects it.
    this.#keys = parseJwks(jwks, true);
    this.#allowHmac = options.allowHmac !== false;
  }

  /** How many keys of the set can verify JWS (their deferred checks not run yet). */
  get size(): number {
    return this.#keys.length;
  }

  held(): readonly KeyEntry[] {
    return this.#allowHmac ? this.#keys : this.#keys.filter((k) => k.kty !== 'oct');
  }

  select(spec: AlgSpec, kid: string | undefined): KeyEntry {
    const key = pick(this.#keys, spec, kid, this.#allowHmac);
    if (key === undefined) throw new JwtError('ERR_JWKS_NO_MATCHING_KEY');
    return key;
  }
}

/**
 * A key set you hold in code, for `jwks` in createVerifier. Throws ERR_JWKS_INVALID
 * for a value that is not `{ keys: [...] }` or holds more than 100 keys.
 *
 * @example
 * import { createLocalJWKSet, createVerifier } from 'edgejwt';
 *
 * const jwks = createLocalJWKSet({ keys: [{ kty: 'OKP', crv: 'Ed25519', kid: 'k1', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }] });
 * const verifier = createVerifier({ algorithms: ['EdDSA'], jwks, issuer: 'https://issuer.example' });
 */
export function createLocalJWKSet(jwks: JSONWebKeySet, options?: LocalSetOptions): LocalJWKSet {
  return new LocalJWKSet(jwks, options);
}
