// GUARD_CONFIG (a JSON object or a JSON string) checked in full before the first
// request is served. Each section is parsed by the module of the stage that runs
// it; this file puts them together. Every mistake is a ConfigError naming the
// setting, so the guard answers 500 with a log line that says what to fix — never a silent pass.

import { parseAdmin, type AdminConfig } from './stages/admin/admin.js';
import { jwksSection, parseCache, type CacheConfig } from './cache-config.js';
import { ConfigError } from './config-error.js';
import { TOP_KEYS } from './config-keys.js';
import { SUPPORTED_ALGORITHMS } from '../algorithms.js';
import { isObject, num, str } from './config-values.js';
import { knownKeys, Problems } from './config-problems.js';
import { parseCors, type CorsConfig } from './stages/cors/cors.js';
import { parseTokenSources, type TokenSource } from './stages/credentials/credentials.js';
import { parseDpop, type DpopConfig, type DpopMode } from './stages/dpop/dpop-config.js';
import { parseForwarding, parseOrigin, type ForwardingConfig, type OriginConfig } from './stages/forward/forwarding-config.js';
import { parseJwksMaxAge } from './jwks-max-age.js';
import { parseIssuers, usesCloudflareAccess, type IssuerConfig } from './issuers-config.js';
import { parseOriginAssertion, type OriginAssertionConfig } from './stages/origin-assertion/origin-assertion-config.js';
import type { PathPolicy } from './stages/path/path.js';
import { parsePaths, parsePublicPaths } from './stages/path/paths-config.js';
import { parseRules, type RuleConfig } from './stages/route/rules.js';
import { parseRevocation, type RevocationConfig } from './stages/revocation/revocation-config.js';
import { parseResource } from '../resource/config.js';
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
}

/** Every setting name parseConfig accepts, per object (generated from ./config-description.ts). */
export { CONFIG_KEYS } from './config-keys.js';

/**
 * Parse and check GUARD_CONFIG; throws a ConfigError naming the first bad setting (a
 * ConfigErrors when there are more: config-problems.ts, every one of them).
 *
 * @example
 * const config = parseConfig('{"issuers":[{"issuer":"https://id.example.com","audience":"api","algorithms":["RS256"],"jwksUrl":"https://id.example.com/jwks"}]}');
 */
export function parseConfig(raw: unknown): GuardConfig {
  if (raw === undefined || raw === null || raw === '') throw new ConfigError('GUARD_CONFIG', 'is not set');
  const v = typeof raw === 'string' ? parseJson(raw) : raw;
  if (!isObject(v)) throw new ConfigError('GUARD_CONFIG', 'expected a JSON object');
  // Each part is checked on its own, so that one run finds every problem. A part with a
  // problem is undefined below (`part` and `!` say so once): throwAny throws before such a
  // config could be returned. What later checks read is kept as possibly undefined.
  const problems = new Problems();
  const part = <T>(check: () => T): T => problems.check(check) as T;
  // The order below is the order settings are checked in (the first problem is the one the guard names).
  part(() => knownKeys(v, '', TOP_KEYS));
  // Before the issuers: an issuer without its own audience takes resource.id (RFC 8707).
  const resource = part(() => parseResource(v.resource));
  const issuers = problems.check(() => parseIssuers(v.issuers, resource?.id));
  // Checks against the issuers are skipped when those are not known (an issuer with a problem
  // of its own): they would only report that problem again.
  const publicPaths = part(() => parsePublicPaths(v.publicPaths));
  const rules = part(() => parseRules(v.rules, issuers && new Set(issuers.flatMap((is) => is.issuer))));
  const tokenSources = part(() => parseTokenSources(v.tokenSources, usesCloudflareAccess(v.issuers)));
  const forwarding = problems.check(() => parseForwarding(v));
  const origin = part(() => parseOrigin(v.origin));
  const realm = part(() => parseRealm(v.realm));
  const jw = problems.check(() => jwksSection(v.jwks)) ?? {};
  const admin = part(() => parseAdmin(v.admin));
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
    cors: part(() => parseCors(v.cors)),
    origin,
    clockTolerance: part(() => num(v.clockTolerance, 'clockTolerance', 0, 0, 600)),
    realm,
    cache: part(() => parseCache(v.cache, new Set(issuers?.flatMap((i) => i.algorithms) ?? SUPPORTED_ALGORITHMS))),
    jwksTimeoutMs: part(() => num(jw.timeoutMs, 'jwks.timeoutMs', 3_000, 100, 30_000)),
    jwksCooldownMs: part(() => num(jw.cooldownMs, 'jwks.cooldownMs', 30_000, 0, 3_600_000)),
    jwksMaxAgeMs: part(() => parseJwksMaxAge(jw.maxAgeMs)),
    admin,
    originAssertion: part(() => parseOriginAssertion(v.originAssertion, forwardHeaders)),
    paths: part(() => parsePaths(v.paths)),
    dpop: part(() => parseDpop(v.dpop, issuers ?? dpopUsers(v.issuers))),
    revocation: part(() => parseRevocation(v.revocation, admin?.path)),
    resource,
  };
  problems.throwAny();
  return config;
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
