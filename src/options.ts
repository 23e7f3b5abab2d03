// Turning user options into verify policies, with every mistake reported at
// construction as ERR_OPTIONS_INVALID naming the setting (never at verify time).

import { isAlgorithm, type AlgSpec, type Algorithm } from './alg-base.js';
import { algSpec } from './algorithms.js';
import type { ClaimPolicy } from './claims.js';
import { normaliseTyp } from './claims.js';
import type { KeyInput } from './keys/entry.js';
import { LocalJWKSet, type JSONWebKeySet } from './keys/local.js';
import { keyEntryFrom } from './keys/from-input.js';
import { singleKey } from './keys/single.js';
import { isKeySource, type KeySource } from './keys/source.js';
import { definedOnly, type OptionNames } from './option-names.js';
import { optionsError } from './options-error.js';

/**
 * Where the keys come from: exactly one of `key` or `jwks` (both, or neither, is
 * a type error, and ERR_OPTIONS_INVALID from plain JavaScript).
 * @example
 * const one: KeyOptions = { key: secretBytes };
 * const set: KeyOptions = { jwks: createRemoteJWKSet(new URL('https://issuer.example/jwks.json')) };
 */
export type KeyOptions =
  | {
      /** One key: a JWK, raw HMAC secret bytes, or a CryptoKey. */
      key: KeyInput;
      jwks?: undefined;
    }
  | {
      /** A key set: a JWKS object, or a set from createLocalJWKSet / createRemoteJWKSet. */
      jwks: JSONWebKeySet | KeySource;
      key?: undefined;
    };

/**
 * The settings one issuer's tokens are checked against: the claim checks, the
 * algorithm allow-list, and (see KeyOptions) exactly one key source.
 * @example
 * const policy: PolicyOptions = { algorithms: ['ES256'], jwks, issuer: 'https://issuer.example', audience: 'api' };
 */
export type PolicyOptions = PolicySettings & KeyOptions;

/** What buildPolicy takes: the key source checked at run time (from JavaScript, anything can come). */
export type PolicyInput = PolicySettings & { key?: KeyInput; jwks?: JSONWebKeySet | KeySource };

/**
 * Everything in PolicyOptions but the key source.
 * @example
 * const settings: PolicySettings = {
 *   algorithms: ['RS256'],
 *   issuer: 'https://as.example',
 *   audience: 'https://api.example',
 *   profile: 'at+jwt',
 * };
 */
export interface PolicySettings {
  /** Allowed `alg` values (required; `none` is never accepted). */
  algorithms: readonly Algorithm[];
  issuer?: string | readonly string[];
  audience?: string | readonly string[];
  subject?: string;
  /** Required header `typ` (e.g. `at+jwt`), compared case-insensitively, `application/` optional. */
  typ?: string;
  /** Seconds of clock skew allowed on exp/nbf/iat (default 0). */
  clockTolerance?: number;
  /** Seconds: reject tokens at least this old by `iat` (requires iat); like `exp`, refused at the boundary. */
  maxTokenAge?: number;
  /** Claims that must be present. */
  requiredClaims?: readonly string[];
  /** Require `exp` (default true). */
  requireExp?: boolean;
  /**
   * `'at+jwt'`: hold tokens to the JWT access token profile (RFC 9068): header `typ`
   * `at+jwt` (or `application/at+jwt`, any case) and `iss`, `exp`, `aud`, `sub`,
   * `client_id`, `iat`, `jti` present, else ERR_JWT_PROFILE_MISMATCH. Needs `issuer`
   * and `audience` (RFC 9068 §4 makes checking both a MUST).
   */
  profile?: 'at+jwt';
}

/** The names a policy accepts: checkOptionNames refuses any other (a misspelt option would turn a check off). */
export const POLICY_OPTION_NAMES = {
  algorithms: true,
  key: true,
  jwks: true,
  issuer: true,
  audience: true,
  subject: true,
  typ: true,
  clockTolerance: true,
  maxTokenAge: true,
  requiredClaims: true,
  requireExp: true,
  profile: true,
} as const satisfies OptionNames<PolicyOptions>;

export interface Policy {
  /** The allowed algorithms by name: the token's `alg` is looked up here, nowhere else. */
  specs: ReadonlyMap<string, AlgSpec>;
  source: KeySource;
  claims: ClaimPolicy;
}

/** An entry's explicit `undefined` (audience: undefined) keeps the shared default, never drops it. */
function mergedClaims(o: Partial<PolicyInput>, defaults: Partial<PolicyInput>): ClaimPolicy {
  return claimPolicy({ ...definedOnly(defaults), ...definedOnly(o) });
}

function stringSet(value: unknown, setting: string): ReadonlySet<string> | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || list.some((v) => typeof v !== 'string' || v.length === 0)) {
    throw optionsError(setting, 'expected a non-empty string or array of strings');
  }
  return new Set(list as string[]);
}

function seconds(value: unknown, setting: string, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  // Whole seconds: a fraction here is nearly always a unit mistake (ms meant as seconds, or the reverse).
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw optionsError(setting, 'expected whole seconds (an integer, 0 or more)');
  return value;
}

export function claimPolicy(o: Partial<PolicyInput>): ClaimPolicy {
  if (o.subject !== undefined && typeof o.subject !== 'string') throw optionsError('subject');
  if (o.typ !== undefined && (typeof o.typ !== 'string' || o.typ.length === 0)) throw optionsError('typ');
  if (o.requireExp !== undefined && typeof o.requireExp !== 'boolean') throw optionsError('requireExp');
  const profile = accessTokenProfile(o);
  const required = o.requiredClaims ?? [];
  if (!Array.isArray(required) || required.some((c) => typeof c !== 'string')) throw optionsError('requiredClaims');
  return {
    issuer: stringSet(o.issuer, 'issuer'),
    audience: stringSet(o.audience, 'audience'),
    subject: o.subject,
    typ: o.typ === undefined ? undefined : normaliseTyp(o.typ),
    clockTolerance: seconds(o.clockTolerance, 'clockTolerance', 0)!,
    maxTokenAge: seconds(o.maxTokenAge, 'maxTokenAge', undefined),
    requiredClaims: [...required],
    requireExp: o.requireExp ?? true,
    profile,
  };
}

/** The `profile` option, checked against the settings it cannot live without. */
function accessTokenProfile(o: Partial<PolicyInput>): 'at+jwt' | undefined {
  if (o.profile === undefined) return undefined;
  if (o.profile !== 'at+jwt') throw optionsError('profile', "the one profile is 'at+jwt'");
  if (o.typ !== undefined && (typeof o.typ !== 'string' || normaliseTyp(o.typ) !== 'at+jwt'))
    throw optionsError('typ', 'the at+jwt profile fixes typ');
  if (o.requireExp === false) throw optionsError('requireExp', 'the at+jwt profile requires exp');
  if (o.issuer === undefined)
    throw optionsError('issuer', 'the at+jwt profile requires an issuer to check iss against');
  if (o.audience === undefined)
    throw optionsError('audience', 'the at+jwt profile requires an audience to check aud against');
  return 'at+jwt';
}

/** `algorithms` checked (every name one the library verifies), with the specs `specOf` has for them. */
function algorithms(value: unknown, specOf: SpecOf): AlgSpec[] {
  if (!Array.isArray(value) || value.length === 0)
    throw optionsError('algorithms', 'a non-empty allow-list is required');
  const specs: AlgSpec[] = [];
  // for...of, not some(): a hole in a sparse array is read (as undefined) and refused.
  for (const a of value as unknown[]) {
    if (typeof a !== 'string' || !isAlgorithm(a)) throw optionsError('algorithms', 'unsupported algorithm');
    const s = specOf(a);
    if (s !== undefined) specs.push(s);
  }
  return specs;
}

/**
 * The algorithm table an entry verifies with: algSpec (every algorithm) for the main
 * entry, hmacSpec for edgejwt/hmac. A name it has no spec for is left out of the specs
 * the key source gets, which refuses it (src/hmac/source.ts).
 */
export type SpecOf = (alg: string) => AlgSpec | undefined;

/** How a policy's key source is made from its options, once `algorithms` is checked. */
export type SourceMaker = (o: PolicyInput, specs: AlgSpec[]) => KeySource;

/** A policy whose key source `sourceOf` makes: the main entry's keySource, or edgejwt/hmac's (src/hmac/source.ts). */
export function policyWith(
  o: PolicyInput,
  defaults: Partial<PolicyInput>,
  sourceOf: SourceMaker,
  specOf: SpecOf,
): Policy {
  if (typeof o !== 'object' || o === null) throw optionsError('issuers');
  const specs = algorithms(o.algorithms, specOf);
  if ((o.key === undefined) === (o.jwks === undefined))
    throw optionsError('key', 'exactly one of key or jwks is required');
  const source = sourceOf(o, specs);
  return { specs: new Map(specs.map((s) => [s.alg, s])), source, claims: mergedClaims(o, defaults) };
}

/**
 * Every key source createVerifier takes: one key of any kind, a set object, or a set made by
 * createLocalJWKSet/createRemoteJWKSet.
 */
function keySource(o: PolicyInput, specs: AlgSpec[]): KeySource {
  if (o.key !== undefined) return singleKey(keyEntryFrom(o.key), specs);
  if (isKeySource(o.jwks)) return o.jwks;
  return new LocalJWKSet(o.jwks as JSONWebKeySet);
}

/**
 * The main entry's policy: any key source.
 * @example
 * const policy = buildPolicy({ algorithms: ['HS256'], key: secretBytes }, {});
 */
export function buildPolicy(o: PolicyInput, defaults: Partial<PolicyInput>): Policy {
  return policyWith(o, defaults, keySource, algSpec);
}
