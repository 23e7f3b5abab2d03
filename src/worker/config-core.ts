// GUARD_CONFIG (a JSON object or a JSON string) checked in full before the first
// request is served. Each section is parsed by the module of the stage that runs
// it; this file puts them together. The optional sections' parsers come with the stages
// a guard is given (SectionParsers): a section set without its parser is left unread, and
// the guard, not given that stage, fails to start naming it (stages/needs.ts). Every
// mistake is a ConfigError naming the setting, so the guard answers 500 with a log line
// that says what to fix — never a silent pass. config.ts gives every parser (parseConfig).

import { jwksSection, parseCache, type CacheConfig } from './cache-config.js';
import type { AdminConfig, parseAdmin } from './stages/admin/admin.js';
import { ConfigError, stageNotGiven } from './config-error.js';
import type { CorsConfig, parseCors } from './stages/cors/cors.js';
import type { DpopConfig, DpopMode, parseDpop } from './stages/dpop/dpop-config.js';
import type { OriginAssertionConfig, parseOriginAssertion } from './stages/origin-assertion/origin-assertion-config.js';
import type { parseRules, RuleConfig } from './stages/route/rules.js';
import type { parseRevocation, RevocationConfig } from './stages/revocation/revocation-config.js';
import { TOP_KEYS } from './config-keys.js';
import { SUPPORTED_ALGORITHMS } from '../algorithms.js';
import { isObject, num, str } from './config-values.js';
import { knownKeys, Problems } from './config-problems.js';
import { parseTokenSources, type TokenSource } from './stages/credentials/credentials.js';
import {
  parseForwarding,
  parseOrigin,
  type ForwardingConfig,
  type OriginConfig,
} from './stages/forward/forwarding-config.js';
import { parseJwksMaxAge, parseJwksStale } from './jwks-max-age.js';
import { parseIssuers, usesCloudflareAccess, type IssuerConfig } from './issuers-config.js';
import type { PathPolicy } from './stages/path/path.js';
import { parsePaths, parsePublicPaths } from './stages/path/paths-config.js';
import type { parseResource } from '../resource/config.js';
import type { ResourceSettings } from '../resource/metadata.js';

export { ConfigError };
export { ECHO_ORIGIN } from './stages/forward/forwarding-config.js';
export { L2_DEFAULT_ALGORITHMS } from './l2-defaults.js';
export { isLoopback, type ClaimWant } from './config-values.js';
export type { AdminConfig, CacheConfig, CorsConfig, IssuerConfig, OriginConfig, RuleConfig, TokenSource };
export type { KeySourceConfig } from './issuers-config.js';
export type { AuthMode } from './stages/route/rules.js';

export interface GuardConfig extends ForwardingConfig {
  issuers: IssuerConfig[];
  publicPaths: string[];
  rules: RuleConfig[];
  tokenSources: TokenSource[];
  cors: CorsConfig | undefined;
  origin: OriginConfig;
  clockTolerance: number;
  realm: string;
  cache: CacheConfig;
  jwksTimeoutMs: number;
  jwksCooldownMs: number;
  /** Longest use of a fetched key set (./jwks-max-age.ts). */
  jwksMaxAgeMs: number;
  /** Use of a key set past freshness while its issuer fails (./jwks-max-age.ts). */
  jwksStaleMs: number;
  admin: AdminConfig | undefined;
  /** Signed identity for the origin (./origin-assertion.ts); undefined when off. */
  originAssertion: OriginAssertionConfig | undefined;
  /** How request paths are read, matched and forwarded (docs/deploy.md, "Request paths"). */
  paths: PathPolicy;
  /** RFC 9449 proofs (./dpop-config.ts); undefined when no issuer sets dpop. */
  dpop: DpopConfig | undefined;
  /** Token revocation (./revocation-stage.ts); undefined when off. */
  revocation: RevocationConfig | undefined;
  /** This API as an OAuth protected resource (RFC 9728, RFC 8707; the resource stage); undefined when off. */
  resource: ResourceSettings | undefined;
  /** Optional sections set in GUARD_CONFIG that no given stage reads (stages/needs.ts refuses them). */
  unread?: ReadonlySet<keyof SectionParsers>;
}

/**
 * The optional sections' parsers, each brought by the stage that runs the section (its `sections`).
 *
 * @example
 * const sections: SectionParsers = { cors: parseCors };
 */
export interface SectionParsers {
  admin?: typeof parseAdmin;
  cors?: typeof parseCors;
  rules?: typeof parseRules;
  originAssertion?: typeof parseOriginAssertion;
  dpop?: typeof parseDpop;
  revocation?: typeof parseRevocation;
  resource?: typeof parseResource;
}

/**
 * Parse and check GUARD_CONFIG with the optional sections' parsers `sections`; throws a ConfigError naming the
 * first bad setting (a ConfigErrors when there are more: config-problems.ts, every one of them).
 *
 * @example
 * const config = parseConfigWith(raw, { cors: parseCors });
 */
export function parseConfigWith(raw: unknown, sections: SectionParsers): GuardConfig {
  if (raw === undefined || raw === null || raw === '') throw new ConfigError('GUARD_CONFIG', 'is not set');
  const v = typeof raw === 'string' ? parseJson(raw) : raw;
  if (!isObject(v)) throw new ConfigError('GUARD_CONFIG', 'expected a JSON object');
  // Each part is checked on its own, so that one run finds every problem. A part with a
  // problem is undefined below (`part` and `!` say so once): throwAny throws before such a
  // config could be returned. What later checks read is kept as possibly undefined.
  const problems = new Problems();
  const part = <T>(check: () => T): T => problems.check(check) as T;
  // An optional section is read by its stage's parser; set without one, it is left unread (and refused later).
  const unread = new Set<keyof SectionParsers>();
  const read = <K extends keyof SectionParsers, T>(
    key: K,
    parse: (p: NonNullable<SectionParsers[K]>) => T,
    set = v[key] !== undefined,
  ): T | undefined => {
    const p = sections[key];
    if (p !== undefined) return parse(p as NonNullable<SectionParsers[K]>);
    if (set) unread.add(key);
    return undefined;
  };
  // The order below is the order settings are checked in (the first problem is the one the guard names).
  part(() => knownKeys(v, '', TOP_KEYS));
  // Before the issuers: an issuer without its own audience takes resource.id (RFC 8707).
  // The issuers' default audience depends on it: without its stage, that is the first problem to name.
  const resource = part(() => {
    const r = read('resource', (p) => p(v.resource));
    if (unread.has('resource')) throw stageNotGiven('resource', 'resource');
    return r;
  });
  const issuers = problems.check(() => parseIssuers(v.issuers, resource?.id));
  // Checks against the issuers are skipped when those are not known (an issuer with a problem
  // of its own): they would only report that problem again.
  const publicPaths = part(() => parsePublicPaths(v.publicPaths));
  const issuerNames = issuers && new Set(issuers.flatMap((is) => is.issuer));
  const rules = part(() => read('rules', (p) => p(v.rules, issuerNames), nonEmpty(v.rules)) ?? []);
  const tokenSources = part(() => parseTokenSources(v.tokenSources, usesCloudflareAccess(v.issuers)));
  const forwarding = problems.check(() => parseForwarding(v));
  const origin = part(() => parseOrigin(v.origin));
  const realm = part(() => parseRealm(v.realm));
  const jw = problems.check(() => jwksSection(v.jwks)) ?? {};
  const admin = part(() => read('admin', (p) => p(v.admin)));
  const forwardHeaders = [
    ...(forwarding?.forwardClaims.map(([, h]) => h) ?? []),
    ...(forwarding?.forwardPayload === undefined ? [] : [forwarding.forwardPayload]),
  ];
  const config: GuardConfig = {
    issuers: issuers!,
    publicPaths,
    rules,
    tokenSources,
    ...forwarding!,
    cors: part(() => read('cors', (p) => p(v.cors))),
    origin,
    clockTolerance: part(() => num(v.clockTolerance, 'clockTolerance', 0, 0, 600)),
    realm,
    cache: part(() => parseCache(v.cache, new Set(issuers?.flatMap((i) => i.algorithms) ?? SUPPORTED_ALGORITHMS))),
    jwksTimeoutMs: part(() => num(jw.timeoutMs, 'jwks.timeoutMs', 3_000, 100, 30_000)),
    jwksCooldownMs: part(() => num(jw.cooldownMs, 'jwks.cooldownMs', 30_000, 0, 3_600_000)),
    jwksMaxAgeMs: part(() => parseJwksMaxAge(jw.maxAgeMs)),
    jwksStaleMs: part(() => parseJwksStale(jw.staleMs)),
    admin,
    originAssertion: part(() => read('originAssertion', (p) => p(v.originAssertion, forwardHeaders))),
    paths: part(() => parsePaths(v.paths)),
    dpop: part(() => {
      const users = dpopUsers(v.issuers);
      return read('dpop', (p) => p(v.dpop, issuers ?? users), v.dpop !== undefined || users.some((is) => is.dpop));
    }),
    revocation: part(() => read('revocation', (p) => p(v.revocation, admin?.path))),
    resource,
    unread,
  };
  problems.throwAny();
  return config;
}

/** Set to anything but an empty list (`rules: []` needs no rules stage). */
function nonEmpty(v: unknown): boolean {
  return v !== undefined && !(Array.isArray(v) && v.length === 0);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError('GUARD_CONFIG', 'is not valid JSON');
  }
}

function parseRealm(v: unknown): string {
  const realm = v === undefined ? 'edgejwt' : str(v, 'realm');
  if (/["\\\r\n]/.test(realm)) throw new ConfigError('realm', 'no quotes, backslashes or line breaks');
  return realm;
}

/** Which raw issuer entries set `dpop` (the value is their own check), for when the issuers are not known. */
function dpopUsers(v: unknown): { dpop?: DpopMode }[] {
  return Array.isArray(v) ? v.map((is) => (isObject(is) && is.dpop !== undefined ? { dpop: 'required' } : {})) : [];
}
