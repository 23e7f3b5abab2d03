// Turning user options into verify policies, with every mistake reported at
// construction as ERR_OPTIONS_INVALID naming the setting (never at verify time).

import { algSpec, type AlgSpec } from './algorithms.js';
import type { ClaimPolicy } from './claims.js';
import { normaliseTyp } from './claims.js';
import { JwtError } from './errors.js';
import { KeyEntry, type KeyInput } from './keys/entry.js';
import { LocalJWKSet, type JSONWebKeySet } from './keys/local.js';
import { KEY_SOURCE, isKeySource, type KeySource } from './keys/set.js';
import { definedOnly } from './option-names.js';

/** The settings one issuer's tokens are checked against. */
export interface PolicyOptions {
  /** Allowed `alg` values (required; `none` is never accepted). */
  algorithms: readonly string[];
  /** One key: a JWK, raw HMAC secret bytes, or a CryptoKey. */
  key?: KeyInput;
  /** A key set: a JWKS object, or a set from createLocalJWKSet / createRemoteJWKSet. */
  jwks?: JSONWebKeySet | KeySource;
  issuer?: string | readonly string[];
  audience?: string | readonly string[];
  subject?: string;
  /** Required header `typ` (e.g. `at+jwt`), compared case-insensitively, `application/` optional. */
  typ?: string;
  /** Seconds of clock skew allowed on exp/nbf/iat (default 0). */
  clockTolerance?: number;
  /** Seconds: reject tokens whose `iat` is older (requires iat). */
  maxTokenAge?: number;
  /** Claims that must be present. */
  requiredClaims?: readonly string[];
  /** Require `exp` (default true). */
  requireExp?: boolean;
}

export interface Policy {
  algs: ReadonlySet<string>;
  source: KeySource;
  claims: ClaimPolicy;
}

function invalid(setting: string, reason?: string): JwtError {
  return new JwtError('ERR_OPTIONS_INVALID', reason === undefined ? { setting } : { setting, reason });
}

function stringSet(value: unknown, setting: string): ReadonlySet<string> | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || list.some((v) => typeof v !== 'string' || v.length === 0)) {
    throw invalid(setting, 'expected a non-empty string or array of strings');
  }
  return new Set(list as string[]);
}

function seconds(value: unknown, setting: string, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw invalid(setting, 'expected a finite number of seconds');
  return value;
}

export function claimPolicy(o: Partial<PolicyOptions>): ClaimPolicy {
  if (o.subject !== undefined && typeof o.subject !== 'string') throw invalid('subject');
  if (o.typ !== undefined && (typeof o.typ !== 'string' || o.typ.length === 0)) throw invalid('typ');
  if (o.requireExp !== undefined && typeof o.requireExp !== 'boolean') throw invalid('requireExp');
  const required = o.requiredClaims ?? [];
  if (!Array.isArray(required) || required.some((c) => typeof c !== 'string')) throw invalid('requiredClaims');
  return {
    issuer: stringSet(o.issuer, 'issuer'),
    audience: stringSet(o.audience, 'audience'),
    subject: o.subject,
    typ: o.typ === undefined ? undefined : normaliseTyp(o.typ),
    clockTolerance: seconds(o.clockTolerance, 'clockTolerance', 0)!,
    maxTokenAge: seconds(o.maxTokenAge, 'maxTokenAge', undefined),
    requiredClaims: [...required],
    requireExp: o.requireExp ?? true,
  };
}

function algorithms(value: unknown): { algs: Set<string>; specs: AlgSpec[] } {
  if (!Array.isArray(value) || value.length === 0) throw invalid('algorithms', 'a non-empty allow-list is required');
  const specs: AlgSpec[] = [];
  for (const a of value) {
    const s = typeof a === 'string' ? algSpec(a) : undefined;
    if (s === undefined) throw invalid('algorithms', 'unsupported algorithm');
    specs.push(s);
  }
  return { algs: new Set(specs.map((s) => s.alg)), specs };
}

/** A single configured key; the token's kid is not consulted. */
class SingleKey implements KeySource {
  readonly [KEY_SOURCE] = true as const;
  constructor(readonly entry: KeyEntry) {}
  select(spec: AlgSpec): KeyEntry {
    if (!this.entry.fits(spec)) throw new JwtError('ERR_KEY_ALG_MISMATCH');
    return this.entry;
  }
}

function singleKey(input: KeyInput, specs: AlgSpec[]): SingleKey {
  const entry = KeyEntry.from(input);
  if (!entry.usable) throw new JwtError('ERR_KEY_INVALID', { reason: 'use, key_ops or alg of the key rule out verification' });
  const fitting = specs.filter((s) => entry.fits(s));
  if (fitting.length === 0) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'no allowed algorithm fits the key' });
  // Import now, so a short or broken key fails here rather than on the first token.
  let firstError: unknown;
  let ok = 0;
  for (const s of fitting) {
    try {
      const h = entry.handle(s);
      if (h instanceof Promise) h.catch(() => undefined);
      ok++;
    } catch (e) {
      firstError ??= e;
    }
  }
  if (ok === 0) throw firstError;
  return new SingleKey(entry);
}

export function buildPolicy(o: PolicyOptions, defaults: Partial<PolicyOptions>): Policy {
  if (typeof o !== 'object' || o === null) throw invalid('issuers');
  const { algs, specs } = algorithms(o.algorithms);
  if ((o.key === undefined) === (o.jwks === undefined)) throw invalid('key', 'exactly one of key or jwks is required');
  let source: KeySource;
  if (o.key !== undefined) source = singleKey(o.key, specs);
  else if (isKeySource(o.jwks)) source = o.jwks;
  else source = new LocalJWKSet(o.jwks as JSONWebKeySet);
  // An entry's explicit `undefined` (audience: undefined) keeps the shared default, never drops it.
  return { algs, source, claims: claimPolicy({ ...definedOnly(defaults), ...definedOnly(o) }) };
}
