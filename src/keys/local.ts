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
  /**
   * Accept `kty: "oct"` (HMAC) keys from the set. On by default for a set you hold in code; remote sets default to
   * off.
   */
  allowHmac?: boolean;
}

/**
 * The names createLocalJWKSet accepts: checkOptionNames refuses any other (a misspelt option would turn a check
 * off).
 */
export const LOCAL_SET_OPTION_NAMES = { allowHmac: true } as const satisfies OptionNames<LocalSetOptions>;

const MAX_JWKS_KEYS = 100;

/**
 * The keys of a JWKS object, its shape checked (ERR_JWKS_INVALID): an object with a keys array of at most 100
 * objects.
 */
function keysOf(jwks: unknown): JWK[] {
  if (typeof jwks !== 'object' || jwks === null || !Array.isArray((jwks as JSONWebKeySet).keys)) {
    throw new JwtError('ERR_JWKS_INVALID', { reason: 'expected an object with a keys array' });
  }
  const list = (jwks as JSONWebKeySet).keys;
  if (list.length > MAX_JWKS_KEYS) throw new JwtError('ERR_JWKS_INVALID', { reason: 'too many keys' });
  for (const jwk of list)
    if (typeof jwk !== 'object' || jwk === null)
      throw new JwtError('ERR_JWKS_INVALID', { reason: 'a key is not an object' });
  return list;
}

/**
 * Key entries from checked keys, skipping those that cannot verify. `defer` (a set held
 * in code, read at its first use): the checks that cost wait for the first token that
 * selects a key (keyEntryFromJwk; pick passes a key failing them over), and a key that
 * cannot be read at all is skipped like a malformed one.
 */
function entriesOf(list: readonly JWK[], defer: boolean): KeyEntry[] {
  const out: KeyEntry[] = [];
  for (const jwk of list) {
    try {
      const entry = keyEntryFromJwk(jwk, defer);
      if (entry.usable) out.push(entry);
    } catch (cause) {
      // One malformed key must not take the whole set down (issuers publish odd keys).
      if (!(cause instanceof JwtError) && !defer) throw cause;
    }
  }
  return out;
}

/** Parse a JWKS object into key entries, skipping keys that cannot verify. */
export function parseJwks(jwks: unknown): KeyEntry[] {
  return entriesOf(keysOf(jwks), false);
}

/** The JWK members a key entry reads (from-input.ts, secret.ts). */
const MEMBERS = ['kty', 'kid', 'alg', 'use', 'key_ops', 'k', 'n', 'e', 'crv', 'x', 'y'] as const;

/** A copy of each key's members (key_ops too), taken now: what the caller changes later is not read. */
function snapshot(list: readonly JWK[]): JWK[] {
  return list.map((jwk) => {
    const copy: Record<string, unknown> = {};
    for (const m of MEMBERS) {
      const v: unknown = jwk[m];
      if (v !== undefined) copy[m] = Array.isArray(v) ? [...(v as unknown[])] : v;
    }
    return copy as JWK;
  });
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
  /** The keys as given (copied), until the first use reads them. */
  #given: JWK[] | undefined;
  #keys: KeyEntry[] | undefined;
  readonly #allowHmac: boolean;

  constructor(jwks: JSONWebKeySet, options: LocalSetOptions = {}) {
    checkOptionNames(options, LOCAL_SET_OPTION_NAMES);
    // The set's shape is checked now; its keys are read at the first token that needs one,
    // each key's costly checks and import when a token first selects it. A key that cannot
    // verify was never an error here (it is left out), so nothing a caller sees moves.
    this.#given = snapshot(keysOf(jwks));
    this.#allowHmac = options.allowHmac !== false;
  }

  #entries(): KeyEntry[] {
    if (this.#keys === undefined) {
      this.#keys = entriesOf(this.#given!, true);
      this.#given = undefined;
    }
    return this.#keys;
  }

  held(): readonly KeyEntry[] {
    const keys = this.#entries();
    return this.#allowHmac ? keys : keys.filter((k) => k.kty !== 'oct');
  }

  select(spec: AlgSpec, kid: string | undefined): KeyEntry {
    const key = pick(this.#entries(), spec, kid, this.#allowHmac);
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
 * const x = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';
 * const jwks = createLocalJWKSet({ keys: [{ kty: 'OKP', crv: 'Ed25519', kid: 'k1', x }] });
 * const verifier = createVerifier({ algorithms: ['EdDSA'], jwks, issuer: 'https://issuer.example' });
 */
export function createLocalJWKSet(jwks: JSONWebKeySet, options?: LocalSetOptions): LocalJWKSet {
  return new LocalJWKSet(jwks, options);
}
