// GUARD_CONFIG (a JSON object or a JSON string) checked in full before the first
// request is served. Every mistake is a ConfigError naming the setting, so the
// guard answers 500 with a log line that says what to fix — never a silent pass.

import { SUPPORTED_ALGORITHMS } from '../algorithms.js';
import type { TokenSource } from '../bearer/token.js';
import type { Admission } from './l2-admission.js';
import { ConfigError } from './config-error.js';
import { L2_DEFAULT_ALGORITHMS } from './l2-defaults.js';
import { ORIGIN_ASSERTION_KEYS, parseOriginAssertion, type OriginAssertionConfig } from './origin-assertion.js';
import { canonicalPath, type PathPolicy } from './path.js';
import { parseIssuerChecks, type IssuerChecks } from './issuer-checks.js';
import { pathPatternProblem, type PathPatternKind } from './path-pattern.js';
import { parseJwksMaxAge } from './jwks-max-age.js';
import { refuseRoundedConfigValue } from './exact-number.js';

export type { TokenSource };

export { ConfigError };

export type KeySourceConfig =
  | { kind: 'jwks'; jwks: { keys: unknown[] } }
  | { kind: 'jwksUrl'; url: string }
  | { kind: 'secret'; binding: string }
  | { kind: 'discovery' };

/** A claim must equal the value, or (a list) one of the values; an array claim must contain it. */
export type ClaimWant = string | number | boolean | readonly (string | number | boolean)[];

export interface IssuerConfig extends IssuerChecks {
  /** Every `iss` spelling this entry accepts (the first is its name in logs). */
  issuer: string[];
  /** Empty when the entry binds tokens with `claims` instead. */
  audience: string[];
  /** Claim values every token of this issuer must carry (Cognito access tokens: client_id, token_use). */
  claims: Record<string, ClaimWant>;
  algorithms: string[];
  source: KeySourceConfig;
}

/** What a matched rule asks of the request. */
export type AuthMode = 'required' | 'optional' | 'none';

export interface RuleConfig {
  pathPrefix: string;
  /** Upper-case methods the rule applies to; undefined: every method. */
  methods: ReadonlySet<string> | undefined;
  auth: AuthMode;
  /** The token's issuer must be one of these configured issuers (any spelling); undefined: any. */
  issuers: string[] | undefined;
  /** The token's aud must hold one of these; undefined: the issuer's own check only. */
  audience: string[] | undefined;
  scopes: string[];
  claims: Record<string, ClaimWant>;
}

export interface CorsConfig {
  /** Exact origins (`https://app.example.com`), or `*` (not with credentials). */
  allowOrigins: string[];
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAge: number;
  credentials: boolean;
}

/** Where authorised requests go: a URL, the built-in echo, or a service binding. */
export type OriginConfig = string | { service: string } | undefined;


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
  /** Which verifications are written to KV: on a token's second sighting in the isolate, or always. */
  verifyAdmission: Admission;
  /** KV verify-cache writes allowed per isolate per minute. */
  verifyWritesPerMinute: number;
}

export interface GuardConfig {
  issuers: IssuerConfig[];
  publicPaths: string[];
  rules: RuleConfig[];
  tokenSources: TokenSource[];
  forwardClaims: [claim: string, header: string][];
  /** Header that carries base64url(JSON payload) to the origin (Envoy's forward_payload_header). */
  forwardPayload: string | undefined;
  /** Keep the credential (header or cookie) on the forwarded request (default true). */
  forwardToken: boolean;
  cors: CorsConfig | undefined;
  origin: OriginConfig;
  clockTolerance: number;
  realm: string;
  cache: CacheConfig;
  jwksTimeoutMs: number;
  jwksCooldownMs: number;
  /** Longest use of a fetched key set (./jwks-max-age.ts). */
  jwksMaxAgeMs: number;
  admin: { path: string; secretBinding: string } | undefined;
  /** Signed identity for the origin (./origin-assertion.ts); undefined when off. */
  originAssertion: OriginAssertionConfig | undefined;
  /** How request paths are read, matched and forwarded (docs/deploy.md, "Request paths"). */
  paths: PathPolicy;
}

/** The origin value that answers with a JSON echo of the forwarded request (dev, demos). */
export const ECHO_ORIGIN = 'builtin:echo';

export { L2_DEFAULT_ALGORITHMS };

const TOP_LEVEL = new Set([
  '$schema', 'issuers', 'publicPaths', 'rules', 'tokenSources', 'forwardClaims', 'forwardPayload', 'forwardToken', 'cors', 'origin', 'clockTolerance', 'realm', 'cache', 'jwks', 'admin', 'originAssertion', 'paths',
]);
const ISSUER_KEYS = new Set(['issuer', 'audience', 'claims', 'algorithms', 'typ', 'maxTokenAge', 'jwks', 'jwksUrl', 'secretBinding', 'discovery', 'cloudflareAccess']);
const RULE_KEYS = new Set(['pathPrefix', 'methods', 'auth', 'issuers', 'audience', 'scopes', 'claims']);
const CORS_KEYS = new Set(['allowOrigins', 'allowMethods', 'allowHeaders', 'exposeHeaders', 'maxAge', 'credentials']);
const AUTH_MODES = new Set(['required', 'optional', 'none']);
const CACHE_KEYS = new Set(['verify', 'jwks', 'verifyTtl', 'l1Max', 'kvTimeoutMs', 'verifyAdmission', 'verifyWritesPerMinute']);
const JWKS_KEYS = new Set(['timeoutMs', 'cooldownMs', 'maxAgeMs']);
const PATHS_KEYS = new Set(['escapedSlashes', 'caseSensitive', 'forward']);
const ADMIN_KEYS = new Set(['path', 'secretBinding']);

/** Every setting name parseConfig accepts, per object (the JSON Schema is tested against these). */
export const CONFIG_KEYS: Readonly<Record<'top' | 'issuer' | 'rule' | 'cors' | 'cache' | 'jwks' | 'paths' | 'admin' | 'originAssertion', ReadonlySet<string>>> = {
  top: TOP_LEVEL,
  issuer: ISSUER_KEYS,
  rule: RULE_KEYS,
  cors: CORS_KEYS,
  cache: CACHE_KEYS,
  jwks: JWKS_KEYS,
  paths: PATHS_KEYS,
  admin: ADMIN_KEYS,
  originAssertion: ORIGIN_ASSERTION_KEYS,
};
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
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new ConfigError(setting, `expected an integer from ${min} to ${max}`);
  return v;
}

function path(v: unknown, setting: string): string {
  const p = str(v, setting);
  if (!p.startsWith('/')) throw new ConfigError(setting, 'a path must start with /');
  return p;
}

/** A rule prefix or public path must already be canonical, so it is compared like the request's path. */
function canonical(v: unknown, setting: string, kind: PathPatternKind): string {
  const p = path(v, setting);
  const problem = pathPatternProblem(p, kind);
  if (problem !== undefined) throw new ConfigError(setting, problem);
  const stem = p.endsWith('*') ? p.slice(0, -1) : p;
  const c = canonicalPath(stem, 'reject');
  if (!c.ok || c.path !== stem) throw new ConfigError(setting, 'not in canonical form (single slashes, no dot segments, unreserved characters unescaped, upper-case hex)');
  return p;
}

function parsePaths(v: unknown): PathPolicy {
  if (v !== undefined && !isObject(v)) throw new ConfigError('paths', 'expected an object');
  const c = v ?? {};
  for (const k of Object.keys(c)) if (!PATHS_KEYS.has(k)) throw new ConfigError(`paths.${k}`, 'unknown setting');
  const escapedSlashes = c.escapedSlashes ?? 'reject';
  if (escapedSlashes !== 'reject' && escapedSlashes !== 'decode') throw new ConfigError('paths.escapedSlashes', 'expected "reject" or "decode"');
  const caseSensitive = c.caseSensitive ?? false;
  if (typeof caseSensitive !== 'boolean') throw new ConfigError('paths.caseSensitive', 'expected true or false');
  const forward = c.forward ?? 'canonical';
  if (forward !== 'canonical' && forward !== 'received') throw new ConfigError('paths.forward', 'expected "canonical" or "received"');
  return { escapedSlashes, caseSensitive, forward };
}

function httpUrl(v: unknown, setting: string): string {
  const s = str(v, setting);
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new ConfigError(setting, 'not a URL');
  }
  const local = isLoopback(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && local)) throw new ConfigError(setting, 'must be https (http only for localhost)');
  return u.href;
}

/** Loopback hosts, the only ones allowed over plain http (local tests and fake IdPs). */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

function claimValues(v: unknown, setting: string): Record<string, ClaimWant> {
  const out: Record<string, ClaimWant> = {};
  if (v === undefined) return out;
  if (!isObject(v)) throw new ConfigError(setting, 'expected an object of claim values');
  const scalar = (x: unknown): boolean => ['string', 'number', 'boolean'].includes(typeof x);
  for (const [name, want] of Object.entries(v)) {
    const ok = scalar(want) || (Array.isArray(want) && want.length > 0 && want.every(scalar));
    if (!ok) throw new ConfigError(`${setting}.${name}`, 'expected a string, number or boolean, or a non-empty list of them');
    refuseRoundedConfigValue(want, `${setting}.${name}`); // exact-number.ts
    out[name] = want as ClaimWant;
  }
  return out;
}

/** `cloudflareAccess: { team }` fills in what Cloudflare Access fixes: issuer, JWKS URL, RS256. */
function expandCloudflareAccess(v: Json, at: string): Json {
  const cfa = v.cloudflareAccess;
  if (cfa === undefined) return v;
  if (!isObject(cfa)) throw new ConfigError(`${at}.cloudflareAccess`, 'expected { "team": name }');
  for (const k of Object.keys(cfa)) if (k !== 'team') throw new ConfigError(`${at}.cloudflareAccess.${k}`, 'unknown setting');
  const team = str(cfa.team, `${at}.cloudflareAccess.team`);
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(team)) throw new ConfigError(`${at}.cloudflareAccess.team`, 'expected the team name (the part before .cloudflareaccess.com)');
  for (const k of ['issuer', 'jwks', 'jwksUrl', 'secretBinding', 'discovery']) {
    if (v[k] !== undefined) throw new ConfigError(`${at}.${k}`, 'set by cloudflareAccess; remove it');
  }
  // The AUD tag of the Access application is required: without it any app of the team would pass.
  if (v.audience === undefined) throw new ConfigError(`${at}.audience`, 'the Access application AUD tag is required');
  const issuer = `https://${team.toLowerCase()}.cloudflareaccess.com`;
  return { ...v, issuer, jwksUrl: `${issuer}/cdn-cgi/access/certs`, algorithms: v.algorithms ?? ['RS256'], cloudflareAccess: undefined };
}

function parseIssuer(raw: unknown, i: number): IssuerConfig {
  const at = `issuers[${i}]`;
  if (!isObject(raw)) throw new ConfigError(at, 'expected an object');
  for (const k of Object.keys(raw)) if (!ISSUER_KEYS.has(k)) throw new ConfigError(`${at}.${k}`, 'unknown setting');
  const v = expandCloudflareAccess(raw, at);
  const issuer = strList(v.issuer, `${at}.issuer`);
  const claims = claimValues(v.claims, `${at}.claims`);
  // A token must be bound to this API: by aud, or by claims (Cognito access tokens carry no aud).
  // Neither is a configuration error, never "any audience".
  if (v.audience === undefined && Object.keys(claims).length === 0) throw new ConfigError(`${at}.audience`, 'an issuer needs audience or claims that bind tokens to this API');
  const audience = v.audience === undefined ? [] : strList(v.audience, `${at}.audience`);
  const algorithms = strList(v.algorithms, `${at}.algorithms`);
  for (const [j, a] of algorithms.entries()) {
    if (!SUPPORTED_ALGORITHMS.includes(a)) throw new ConfigError(`${at}.algorithms[${j}]`, 'unsupported algorithm');
  }
  if (v.discovery !== undefined && v.discovery !== true) throw new ConfigError(`${at}.discovery`, 'expected true (or leave it out)');
  const given = (['jwks', 'jwksUrl', 'secretBinding', 'discovery'] as const).filter((k) => v[k] !== undefined);
  if (given.length > 1) throw new ConfigError(`${at}`, 'at most one of jwks, jwksUrl, secretBinding or discovery');
  const hs = algorithms.filter((a) => a.startsWith('HS'));
  let source: KeySourceConfig;
  if (given.length === 0 || v.discovery === true) {
    // OIDC discovery from the issuer itself: it must be one URL, https (http only on loopback).
    if (issuer.length !== 1) throw new ConfigError(`${at}.issuer`, 'discovery needs exactly one issuer');
    httpUrl(issuer[0], `${at}.issuer`);
    if (hs.length > 0) throw new ConfigError(`${at}.algorithms`, 'HS algorithms need a secretBinding, not a key set');
    source = { kind: 'discovery' };
  } else if (v.secretBinding !== undefined) {
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
  return { issuer, audience, claims, algorithms, source, ...parseIssuerChecks(v, at) };
}

function parseRule(v: unknown, i: number, issuerNames: ReadonlySet<string>): RuleConfig {
  const at = `rules[${i}]`;
  if (!isObject(v)) throw new ConfigError(at, 'expected an object');
  for (const k of Object.keys(v)) if (!RULE_KEYS.has(k)) throw new ConfigError(`${at}.${k}`, 'unknown setting');
  const pathPrefix = canonical(v.pathPrefix, `${at}.pathPrefix`, 'pathPrefix');
  let methods: Set<string> | undefined;
  if (v.methods !== undefined) {
    const list = strList(v.methods, `${at}.methods`);
    for (const [j, m] of list.entries()) if (!HTTP_TOKEN.test(m)) throw new ConfigError(`${at}.methods[${j}]`, 'not an HTTP method');
    methods = new Set(list.map((m) => m.toUpperCase()));
    // Origins answer HEAD with their GET handler: a rule for GET must cover HEAD, or
    // HEAD would fall through to a weaker rule.
    if (methods.has('GET')) methods.add('HEAD');
  }
  if (v.auth !== undefined && (typeof v.auth !== 'string' || !AUTH_MODES.has(v.auth))) throw new ConfigError(`${at}.auth`, 'expected "required", "optional" or "none"');
  const auth = (v.auth ?? 'required') as AuthMode;
  const issuers = v.issuers === undefined ? undefined : strList(v.issuers, `${at}.issuers`);
  for (const [j, name] of (issuers ?? []).entries()) if (!issuerNames.has(name)) throw new ConfigError(`${at}.issuers[${j}]`, 'not a configured issuer');
  const audience = v.audience === undefined ? undefined : strList(v.audience, `${at}.audience`);
  const scopes = v.scopes === undefined ? [] : strList(v.scopes, `${at}.scopes`);
  for (const [j, s] of scopes.entries()) if (/\s|"|\\/.test(s)) throw new ConfigError(`${at}.scopes[${j}]`, 'a scope has no spaces, quotes or backslashes');
  const claims = claimValues(v.claims, `${at}.claims`);
  const asks = scopes.length > 0 || Object.keys(claims).length > 0 || issuers !== undefined || audience !== undefined;
  if (auth === 'none' && asks) throw new ConfigError(at, 'an auth "none" rule checks no token: remove scopes, claims, issuers and audience');
  // A rule that asks nothing and sets no mode is most likely a half-written one.
  if (v.auth === undefined && !asks) throw new ConfigError(at, 'a rule needs scopes, claims, issuers, audience or an auth mode');
  return { pathPrefix, methods, auth, issuers, audience, scopes, claims };
}

function parseCors(v: unknown): CorsConfig | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) throw new ConfigError('cors', 'expected an object');
  for (const k of Object.keys(v)) if (!CORS_KEYS.has(k)) throw new ConfigError(`cors.${k}`, 'unknown setting');
  const allowOrigins = strList(v.allowOrigins, 'cors.allowOrigins');
  for (const [j, o] of allowOrigins.entries()) {
    if (o === '*') continue;
    let u: URL | undefined;
    try {
      u = new URL(o);
    } catch {
      u = undefined;
    }
    // An Origin header is scheme://host[:port] exactly; anything else would never match.
    if (u === undefined || u.origin !== o) throw new ConfigError(`cors.allowOrigins[${j}]`, 'expected an origin such as https://app.example.com (no path, no trailing slash)');
  }
  if (v.credentials !== undefined && typeof v.credentials !== 'boolean') throw new ConfigError('cors.credentials', 'expected true or false');
  const credentials = v.credentials === true;
  if (credentials && allowOrigins.includes('*')) throw new ConfigError('cors.allowOrigins', '"*" cannot be used with credentials');
  const tokens = (x: unknown, setting: string, fallback: string[]): string[] => {
    if (x === undefined) return fallback;
    const list = strList(x, setting, true);
    for (const [j, t] of list.entries()) if (!HTTP_TOKEN.test(t)) throw new ConfigError(`${setting}[${j}]`, 'not a valid name');
    return list;
  };
  return {
    allowOrigins,
    allowMethods: tokens(v.allowMethods, 'cors.allowMethods', ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']).map((m) => m.toUpperCase()),
    allowHeaders: tokens(v.allowHeaders, 'cors.allowHeaders', ['Authorization', 'Content-Type']),
    exposeHeaders: tokens(v.exposeHeaders, 'cors.exposeHeaders', ['WWW-Authenticate', 'Server-Timing']),
    maxAge: num(v.maxAge, 'cors.maxAge', 600, 0, 86_400),
    credentials,
  };
}

function parseOrigin(v: unknown): OriginConfig {
  if (v === undefined) return undefined;
  if (v === ECHO_ORIGIN) return ECHO_ORIGIN;
  if (isObject(v)) {
    for (const k of Object.keys(v)) if (k !== 'service') throw new ConfigError(`origin.${k}`, 'unknown setting');
    const service = str(v.service, 'origin.service');
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(service)) throw new ConfigError('origin.service', 'expected a binding name');
    return { service };
  }
  return httpUrl(v, 'origin');
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
  for (const k of Object.keys(c)) if (!CACHE_KEYS.has(k)) throw new ConfigError(`cache.${k}`, 'unknown setting');
  let verify: string[];
  if (c.verify === undefined || c.verify === false) verify = [];
  else if (c.verify === true) verify = L2_DEFAULT_ALGORITHMS.filter((a) => algorithms.has(a));
  else if (c.verify === 'all') verify = [...algorithms];
  else {
    verify = strList(c.verify, 'cache.verify', true);
    for (const [j, a] of verify.entries()) if (!algorithms.has(a)) throw new ConfigError(`cache.verify[${j}]`, 'not an algorithm of any issuer');
  }
  if (c.jwks !== undefined && typeof c.jwks !== 'boolean') throw new ConfigError('cache.jwks', 'expected true or false');
  const admission = c.verifyAdmission ?? 'seen-twice';
  if (admission !== 'seen-twice' && admission !== 'always') throw new ConfigError('cache.verifyAdmission', 'expected "seen-twice" or "always"');
  return {
    verifyAlgorithms: new Set(verify),
    jwks: c.jwks !== false,
    // KV refuses expirationTtl under 60 s.
    verifyTtl: num(c.verifyTtl, 'cache.verifyTtl', 300, 60, 86_400),
    l1Max: num(c.l1Max, 'cache.l1Max', 1000, 0, 100_000),
    kvTimeoutMs: num(c.kvTimeoutMs, 'cache.kvTimeoutMs', 100, 1, 10_000),
    verifyAdmission: admission,
    verifyWritesPerMinute: num(c.verifyWritesPerMinute, 'cache.verifyWritesPerMinute', 60, 1, 100_000),
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
    for (const name of is.issuer) {
      if (seen.has(name)) throw new ConfigError(`issuers[${i}].issuer`, 'listed twice');
      seen.add(name);
    }
  }

  const publicPaths = v.publicPaths === undefined ? [] : strList(v.publicPaths, 'publicPaths', true).map((p, i) => canonical(p, `publicPaths[${i}]`, 'publicPath'));
  if (v.rules !== undefined && !Array.isArray(v.rules)) throw new ConfigError('rules', 'expected an array');
  const rules = ((v.rules as unknown[] | undefined) ?? []).map((r, i) => parseRule(r, i, seen));
  if (v.tokenSources !== undefined && (!Array.isArray(v.tokenSources) || v.tokenSources.length === 0)) throw new ConfigError('tokenSources', 'expected a non-empty array');
  // Cloudflare Access sends its token in Cf-Access-Jwt-Assertion (and the CF_Authorization cookie).
  const access = Array.isArray(v.issuers) && v.issuers.some((x) => isObject(x) && x.cloudflareAccess !== undefined);
  const defaultSources = access ? [{ header: 'Cf-Access-Jwt-Assertion' }, { header: 'Authorization' }, { cookie: 'CF_Authorization' }] : [{ header: 'Authorization' }];
  const tokenSources = ((v.tokenSources as unknown[] | undefined) ?? defaultSources).map(parseSource);

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

  let forwardPayload: string | undefined;
  if (v.forwardPayload !== undefined) {
    forwardPayload = str(v.forwardPayload, 'forwardPayload');
    if (!HTTP_TOKEN.test(forwardPayload)) throw new ConfigError('forwardPayload', 'not a valid header name');
    if (RESERVED_HEADERS.has(forwardPayload.toLowerCase()) || headersSeen.has(forwardPayload.toLowerCase())) throw new ConfigError('forwardPayload', 'this header cannot carry the payload');
  }
  if (v.forwardToken !== undefined && typeof v.forwardToken !== 'boolean') throw new ConfigError('forwardToken', 'expected true or false');

  const origin = parseOrigin(v.origin);

  const realm = v.realm === undefined ? 'edgejwt' : str(v.realm, 'realm');
  if (/["\\\r\n]/.test(realm)) throw new ConfigError('realm', 'no quotes, backslashes or line breaks');

  if (v.jwks !== undefined && !isObject(v.jwks)) throw new ConfigError('jwks', 'expected an object');
  const jw = (v.jwks as Json | undefined) ?? {};
  for (const k of Object.keys(jw)) if (!JWKS_KEYS.has(k)) throw new ConfigError(`jwks.${k}`, 'unknown setting');

  let admin: GuardConfig['admin'];
  if (v.admin !== undefined) {
    if (!isObject(v.admin)) throw new ConfigError('admin', 'expected { "path": ..., "secretBinding": ... }');
    for (const k of Object.keys(v.admin)) if (!ADMIN_KEYS.has(k)) throw new ConfigError(`admin.${k}`, 'unknown setting');
    admin = { path: path(v.admin.path, 'admin.path'), secretBinding: str(v.admin.secretBinding, 'admin.secretBinding') };
  }

  const allAlgs = new Set(issuers.flatMap((i) => i.algorithms));
  return {
    issuers,
    publicPaths,
    rules,
    tokenSources,
    forwardClaims,
    forwardPayload,
    forwardToken: v.forwardToken !== false,
    cors: parseCors(v.cors),
    origin,
    clockTolerance: num(v.clockTolerance, 'clockTolerance', 0, 0, 600),
    realm,
    cache: parseCache(v.cache, allAlgs),
    jwksTimeoutMs: num(jw.timeoutMs, 'jwks.timeoutMs', 3_000, 100, 30_000),
    jwksCooldownMs: num(jw.cooldownMs, 'jwks.cooldownMs', 30_000, 0, 3_600_000),
    jwksMaxAgeMs: parseJwksMaxAge(jw.maxAgeMs),
    admin,
    originAssertion: parseOriginAssertion(v.originAssertion, [...forwardClaims.map(([, h]) => h), ...(forwardPayload === undefined ? [] : [forwardPayload])]),
    paths: parsePaths(v.paths),
  };
}
