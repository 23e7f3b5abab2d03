// GUARD_CONFIG (a JSON object or a JSON string) checked in full before the first
// request is served. Each section is parsed by the module of the stage that runs
// it; this file puts them together. Every mistake is a ConfigError naming the
// setting, so the guard answers 500 with a log line that says what to fix — never a silent pass.

import { parseAdmin, type AdminConfig } from './admin.js';
import { jwksSection, parseCache, type CacheConfig } from './cache-config.js';
import { ConfigError } from './config-error.js';
import { TOP_KEYS } from './config-keys.js';
import { isObject, num, str } from './config-values.js';
import { parseCors, type CorsConfig } from './cors.js';
import { parseTokenSources, type TokenSource } from './credentials.js';
import { parseDpop, type DpopConfig } from './dpop-config.js';
import { parseForwarding, parseOrigin, type ForwardingConfig, type OriginConfig } from './forwarding-config.js';
import { parseJwksMaxAge } from './jwks-max-age.js';
import { parseIssuers, usesCloudflareAccess, type IssuerConfig } from './issuers-config.js';
import { parseOriginAssertion, type OriginAssertionConfig } from './origin-assertion-config.js';
import type { PathPolicy } from './path.js';
import { parsePaths, parsePublicPaths } from './paths-config.js';
import { parseRules, type RuleConfig } from './rules.js';
import { parseRevocation, type RevocationConfig } from './revocation-config.js';
import { parseResource } from '../resource/config.js';
import type { ResourceSettings } from '../resource/metadata.js';

export { ConfigError };
export { ECHO_ORIGIN } from './forwarding-config.js';
export { L2_DEFAULT_ALGORITHMS } from './l2-defaults.js';
export { isLoopback, type ClaimWant } from './config-values.js';
export type { AdminConfig, CacheConfig, CorsConfig, IssuerConfig, OriginConfig, RuleConfig, TokenSource };
export type { KeySourceConfig } from './issuers-config.js';
export type { AuthMode } from './rules.js';

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
 * Parse and check GUARD_CONFIG; throws ConfigError naming the first bad setting.
 *
 * @example
 * const config = parseConfig('{"issuers":[{"issuer":"https://id.example.com","audience":"api","algorithms":["RS256"],"jwksUrl":"https://id.example.com/jwks"}]}');
 */
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
  for (const k of Object.keys(v)) if (!TOP_KEYS.has(k)) throw new ConfigError(k, 'unknown setting');

  // The order below is the order settings are checked in (the first mistake is the one named).
  // Before the issuers: an issuer without its own audience takes resource.id (RFC 8707).
  const resource = parseResource(v.resource);
  const issuers = parseIssuers(v.issuers, resource?.id);
  const publicPaths = parsePublicPaths(v.publicPaths);
  const rules = parseRules(v.rules, new Set(issuers.flatMap((is) => is.issuer)));
  const tokenSources = parseTokenSources(v.tokenSources, usesCloudflareAccess(v.issuers));
  const forwarding = parseForwarding(v);
  const origin = parseOrigin(v.origin);
  const realm = v.realm === undefined ? 'edgejwt' : str(v.realm, 'realm');
  if (/["\\\r\n]/.test(realm)) throw new ConfigError('realm', 'no quotes, backslashes or line breaks');
  const jw = jwksSection(v.jwks);
  const admin = parseAdmin(v.admin);
  const forwardHeaders = [...forwarding.forwardClaims.map(([, h]) => h), ...(forwarding.forwardPayload === undefined ? [] : [forwarding.forwardPayload])];
  return {
    issuers,
    publicPaths,
    rules,
    tokenSources,
    ...forwarding,
    cors: parseCors(v.cors),
    origin,
    clockTolerance: num(v.clockTolerance, 'clockTolerance', 0, 0, 600),
    realm,
    cache: parseCache(v.cache, new Set(issuers.flatMap((i) => i.algorithms))),
    jwksTimeoutMs: num(jw.timeoutMs, 'jwks.timeoutMs', 3_000, 100, 30_000),
    jwksCooldownMs: num(jw.cooldownMs, 'jwks.cooldownMs', 30_000, 0, 3_600_000),
    jwksMaxAgeMs: parseJwksMaxAge(jw.maxAgeMs),
    admin,
    originAssertion: parseOriginAssertion(v.originAssertion, forwardHeaders),
    paths: parsePaths(v.paths),
    dpop: parseDpop(v.dpop, issuers),
    revocation: parseRevocation(v.revocation, admin?.path),
    resource,
  };
}
