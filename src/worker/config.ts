// GUARD_CONFIG (a JSON object or a JSON string) checked in full before the first
// request is served. Every mistake is a ConfigError naming the setting, so the
// guard answers 500 with a log line that says what to fix — never a silent pass.

import { SUPPORTED_ALGORITHMS } from '../algorithms.js';
import type { TokenSource } from '../bearer/token.js';

export type { TokenSource };

export class ConfigError extends Error {
  readonly setting: string;
  constructor(setting: string, reason: string) {
    // Reasons are fixed text: configuration values (which may be secrets) never appear.
    super(`GUARD_CONFIG ${setting}: ${reason}`);
    this.name = 'ConfigError';
    this.setting = setting;
  }
}

export type KeySourceConfig =
  | { kind: 'jwks'; jwks: { keys: unknown[] } }
  | { kind: 'jwksUrl'; url: string }
  | { kind: 'secret'; binding: string };

export interface IssuerConfig {
  issuer: string;
  audience: string[];
  algorithms: string[];
  typ?: string;
  source: KeySourceConfig;
}

export interface RuleConfig {
  pathPrefix: string;
  scopes: string[];
  claims: Record<string, string | number | boolean>;
}


export interface CacheConfig {
  /** Algorithms whose verifications go to the KV verify cache (empty: off). */
  verifyAlgorithms: ReadonlySet<string>;
  jwks: boolean;
  /** Upper bound on a KV verify entry's life, seconds. */
  verifyTtl: number;
  /** Entries in the per-isolate L1. */
  l1Max: number;
  /** A KV read slower than this is a miss, ms. */
  kvTimeoutMs: number;
}

export interface GuardConfig {
  issuers: IssuerConfig[];
  publicPaths: string[];
  rules: RuleConfig[];
  tokenSources: TokenSource[];
  forwardClaims: [claim: string, header: string][];
  origin: string | undefined;
  clockTolerance: number;
  realm: string;
  cache: CacheConfig;
  jwksTimeoutMs: number;
  jwksCooldownMs: number;
  admin: { path: string; secretBinding: string } | undefined;
}

/** The origin value that answers with a JSON echo of the forwarded request (dev, demos). */
export const ECHO_ORIGIN = 'builtin:echo';

/**
 * Which algorithms `cache.verify: true` sends to KV, chosen by measurement (docs/deploy.md):
 * a KV read costs milliseconds of wall time and L2's own CPU (hash, unseal, parse) about
 * 55 µs in workerd, so only verifies that cost several times that in CPU gain anything:
 * ECDSA (~250 µs for ES256). HS*, EdDSA and 2048-bit RSA verify about as fast as L2
 * itself runs. Unset or false: L2 is off.
 */
export const L2_DEFAULT_ALGORITHMS: readonly string[] = ['ES256', 'ES384', 'ES512'];

const TOP_LEVEL = new Set([
  'issuers', 'publicPaths', 'rules', 'tokenSources', 'forwardClaims', 'origin', 'clockTolerance', 'realm', 'cache', 'jwks', 'admin',
]);
const ISSUER_KEYS = new Set(['issuer', 'audience', 'algorithms', 'typ', 'jwks', 'jwksUrl', 'secretBinding']);
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Headers the guard must never let a claim overwrite.
const RESERVED_HEADERS = new Set(['authorization', 'cookie', 'host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'server-timing']);

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown, setting: string): string {
  if (typeof v !== 'string' || v.length === 0) throw new ConfigError(setting, 'expected a non-empty string');
  return v;
}

function strList(v: unknown, setting: string, allowEmpty = false): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || (!allowEmpty && list.length === 0)) throw new ConfigError(setting, 'expected a string or a non-empty array of strings');
  return list.map((x, i) => str(x, `${setting}[${i}]`));
}

function num(v: unknown, setting: string, fallback: number, min: number, max: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) throw new ConfigError(setting, `expected a number from ${min} to ${max}`);
  return v;
}

function path(v: unknown, setting: string): string {
  const p = str(v, setting);
  if (!p.startsWith('/')) throw new ConfigError(setting, 'a path must start with /');
  return p;
}

function httpUrl(v: unknown, setting: string): string {
  const s = str(v, setting);
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new ConfigError(setting, 'not a URL');
  }
  const local = u.hostname === 'localhost' || u.hostname === '127.0.0.1';
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && local)) throw new ConfigError(setting, 'must be https (http only for localhost)');
  return u.href;
}

function parseIssuer(v: unknown, i: number): IssuerConfig {
  const at = `issuers[${i}]`;
  if (!isObject(v)) throw new ConfigError(at, 'expected an object');
  for (const k of Object.keys(v)) if (!ISSUER_KEYS.has(k)) throw new ConfigError(`${at}.${k}`, 'unknown setting');
  const issuer = str(v.issuer, `${at}.issuer`);
  // An audience is required: a guard that skips aud accepts tokens minted for other APIs.
  const audience = strList(v.audience, `${at}.audience`);
  const algorithms = strList(v.algorithms, `${at}.algorithms`);
  for (const [j, a] of algorithms.entries()) {
    if (!SUPPORTED_ALGORITHMS.includes(a)) throw new ConfigError(`${at}.algorithms[${j}]`, 'unsupported algorithm');
  }
  const given = (['jwks', 'jwksUrl', 'secretBinding'] as const).filter((k) => v[k] !== undefined);
  if (given.length !== 1) throw new ConfigError(`${at}`, 'exactly one of jwks, jwksUrl or secretBinding is required');
  const hs = algorithms.filter((a) => a.startsWith('HS'));
  let source: KeySourceConfig;
  if (v.secretBinding !== undefined) {
    if (hs.length !== algorithms.length) throw new ConfigError(`${at}.algorithms`, 'a secretBinding issuer allows only HS256/HS384/HS512');
    source = { kind: 'secret', binding: str(v.secretBinding, `${at}.secretBinding`) };
  } else {
    // Published key sets must never verify HMAC: anyone holding the set could mint tokens.
    if (hs.length > 0) throw new ConfigError(`${at}.algorithms`, 'HS algorithms need a secretBinding, not a key set');
    if (v.jwksUrl !== undefined) source = { kind: 'jwksUrl', url: httpUrl(v.jwksUrl, `${at}.jwksUrl`) };
    else {
      const jwks = v.jwks;
      if (!isObject(jwks) || !Array.isArray(jwks.keys) || jwks.keys.length === 0) throw new ConfigError(`${at}.jwks`, 'expected { "keys": [ ... ] } with at least one key');
      source = { kind: 'jwks', jwks: { keys: jwks.keys } };
    }
  }
  const out: IssuerConfig = { issuer, audience, algorithms, source };
  if (v.typ !== undefined) out.typ = str(v.typ, `${at}.typ`);
  return out;
}

function parseRule(v: unknown, i: number): RuleConfig {
  const at = `rules[${i}]`;
  if (!isObject(v)) throw new ConfigError(at, 'expected an object');
  for (const k of Object.keys(v)) if (!['pathPrefix', 'scopes', 'claims'].includes(k)) throw new ConfigError(`${at}.${k}`, 'unknown setting');
  const pathPrefix = path(v.pathPrefix, `${at}.pathPrefix`);
  const scopes = v.scopes === undefined ? [] : strList(v.scopes, `${at}.scopes`);
  for (const [j, s] of scopes.entries()) if (/\s|"|\\/.test(s)) throw new ConfigError(`${at}.scopes[${j}]`, 'a scope has no spaces, quotes or backslashes');
  const claims: RuleConfig['claims'] = {};
  if (v.claims !== undefined) {
    if (!isObject(v.claims)) throw new ConfigError(`${at}.claims`, 'expected an object of claim values');
    for (const [name, want] of Object.entries(v.claims)) {
      if (!['string', 'number', 'boolean'].includes(typeof want)) throw new ConfigError(`${at}.claims.${name}`, 'expected a string, number or boolean');
      claims[name] = want as string | number | boolean;
    }
  }
  if (scopes.length === 0 && Object.keys(claims).length === 0) throw new ConfigError(at, 'a rule needs scopes or claims');
  return { pathPrefix, scopes, claims };
}

function parseSource(v: unknown, i: number): TokenSource {
  const at = `tokenSources[${i}]`;
  if (!isObject(v) || Object.keys(v).length !== 1) throw new ConfigError(at, 'expected { "header": name } or { "cookie": name }');
  if (v.header !== undefined) {
    const h = str(v.header, `${at}.header`);
    if (!HTTP_TOKEN.test(h)) throw new ConfigError(`${at}.header`, 'not a valid header name');
    return { header: h };
  }
  if (v.cookie !== undefined) {
    const c = str(v.cookie, `${at}.cookie`);
    if (!HTTP_TOKEN.test(c)) throw new ConfigError(`${at}.cookie`, 'not a valid cookie name');
    return { cookie: c };
  }
  throw new ConfigError(at, 'expected { "header": name } or { "cookie": name }');
}

function parseCache(v: unknown, algorithms: Set<string>): CacheConfig {
  if (v !== undefined && !isObject(v)) throw new ConfigError('cache', 'expected an object');
  const c = v ?? {};
  for (const k of Object.keys(c)) if (!['verify', 'jwks', 'verifyTtl', 'l1Max', 'kvTimeoutMs'].includes(k)) throw new ConfigError(`cache.${k}`, 'unknown setting');
  let verify: string[];
  if (c.verify === undefined || c.verify === false) verify = [];
  else if (c.verify === true) verify = L2_DEFAULT_ALGORITHMS.filter((a) => algorithms.has(a));
  else if (c.verify === 'all') verify = [...algorithms];
  else {
    verify = strList(c.verify, 'cache.verify', true);
    for (const [j, a] of verify.entries()) if (!algorithms.has(a)) throw new ConfigError(`cache.verify[${j}]`, 'not an algorithm of any issuer');
  }
  if (c.jwks !== undefined && typeof c.jwks !== 'boolean') throw new ConfigError('cache.jwks', 'expected true or false');
  return {
    verifyAlgorithms: new Set(verify),
    jwks: c.jwks !== false,
    // KV refuses expirationTtl under 60 s.
    verifyTtl: num(c.verifyTtl, 'cache.verifyTtl', 300, 60, 86_400),
    l1Max: num(c.l1Max, 'cache.l1Max', 1000, 0, 100_000),
    kvTimeoutMs: num(c.kvTimeoutMs, 'cache.kvTimeoutMs', 100, 1, 10_000),
  };
}

/** Parse and check GUARD_CONFIG; throws ConfigError naming the first bad setting. */
export function parseConfig(raw: unknown): GuardConfig {
  if (raw === undefined || raw === null || raw === '') throw new ConfigError('GUARD_CONFIG', 'is not set');
  let v: unknown = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      throw new ConfigError('GUARD_CONFIG', 'is not valid JSON');
    }
  }
  if (!isObject(v)) throw new ConfigError('GUARD_CONFIG', 'expected a JSON object');
  for (const k of Object.keys(v)) if (!TOP_LEVEL.has(k)) throw new ConfigError(k, 'unknown setting');

  if (!Array.isArray(v.issuers) || v.issuers.length === 0) throw new ConfigError('issuers', 'expected a non-empty array');
  const issuers = v.issuers.map(parseIssuer);
  const seen = new Set<string>();
  for (const [i, is] of issuers.entries()) {
    if (seen.has(is.issuer)) throw new ConfigError(`issuers[${i}].issuer`, 'listed twice');
    seen.add(is.issuer);
  }

  const publicPaths = v.publicPaths === undefined ? [] : strList(v.publicPaths, 'publicPaths', true).map((p, i) => path(p, `publicPaths[${i}]`));
  if (v.rules !== undefined && !Array.isArray(v.rules)) throw new ConfigError('rules', 'expected an array');
  const rules = ((v.rules as unknown[] | undefined) ?? []).map(parseRule);
  if (v.tokenSources !== undefined && (!Array.isArray(v.tokenSources) || v.tokenSources.length === 0)) throw new ConfigError('tokenSources', 'expected a non-empty array');
  const tokenSources = ((v.tokenSources as unknown[] | undefined) ?? [{ header: 'Authorization' }]).map(parseSource);

  const forwardClaims: [string, string][] = [];
  const fc = v.forwardClaims ?? { sub: 'X-Auth-Sub' };
  if (!isObject(fc)) throw new ConfigError('forwardClaims', 'expected an object of claim -> header name');
  const headersSeen = new Set<string>();
  for (const [claim, header] of Object.entries(fc)) {
    const h = str(header, `forwardClaims.${claim}`);
    if (!HTTP_TOKEN.test(h)) throw new ConfigError(`forwardClaims.${claim}`, 'not a valid header name');
    if (RESERVED_HEADERS.has(h.toLowerCase())) throw new ConfigError(`forwardClaims.${claim}`, 'this header cannot carry a claim');
    if (headersSeen.has(h.toLowerCase())) throw new ConfigError(`forwardClaims.${claim}`, 'header used twice');
    headersSeen.add(h.toLowerCase());
    forwardClaims.push([claim, h]);
  }

  let origin: string | undefined;
  if (v.origin !== undefined) origin = v.origin === ECHO_ORIGIN ? ECHO_ORIGIN : httpUrl(v.origin, 'origin');

  const realm = v.realm === undefined ? 'edgejwt' : str(v.realm, 'realm');
  if (/["\\\r\n]/.test(realm)) throw new ConfigError('realm', 'no quotes, backslashes or line breaks');

  if (v.jwks !== undefined && !isObject(v.jwks)) throw new ConfigError('jwks', 'expected an object');
  const jw = (v.jwks as Json | undefined) ?? {};
  for (const k of Object.keys(jw)) if (!['timeoutMs', 'cooldownMs'].includes(k)) throw new ConfigError(`jwks.${k}`, 'unknown setting');

  let admin: GuardConfig['admin'];
  if (v.admin !== undefined) {
    if (!isObject(v.admin)) throw new ConfigError('admin', 'expected { "path": ..., "secretBinding": ... }');
    admin = { path: path(v.admin.path, 'admin.path'), secretBinding: str(v.admin.secretBinding, 'admin.secretBinding') };
  }

  const allAlgs = new Set(issuers.flatMap((i) => i.algorithms));
  return {
    issuers,
    publicPaths,
    rules,
    tokenSources,
    forwardClaims,
    origin,
    clockTolerance: num(v.clockTolerance, 'clockTolerance', 0, 0, 600),
    realm,
    cache: parseCache(v.cache, allAlgs),
    jwksTimeoutMs: num(jw.timeoutMs, 'jwks.timeoutMs', 3_000, 100, 30_000),
    jwksCooldownMs: num(jw.cooldownMs, 'jwks.cooldownMs', 30_000, 0, 3_600_000),
    admin,
  };
}
