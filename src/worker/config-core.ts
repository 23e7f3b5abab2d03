// GUARD_CONFIG (a JSON object or a JSON string) checked in full before the first
// request is served. Each section is parsed by the module of the stage that runs it; this
// file puts them together. An optional top-level section (section.ts) is read by the parser
// of the stage that brings it (its `section`), right after the core check it names: a
// section set whose stage the guard was not given is left unread, and the guard fails to
// start naming it (stages/needs.ts). Every mistake is a ConfigError naming the setting, so
// the guard answers 500 with a log line that says what to fix — never a silent pass.
// config.ts reads every section (parseConfig).

import { jwksSection, parseCache, type CacheConfig } from './cache-config.js';
import { ConfigError, stageNotGiven } from './config-error.js';
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
import type { CoreCheck, GuardSection, SectionContext, SectionValues } from './section.js';
import { resourceSection } from './stages/resource/section.js';

export { ConfigError };
export { ECHO_ORIGIN } from './stages/forward/forwarding-config.js';
export { L2_DEFAULT_ALGORITHMS } from './l2-defaults.js';
export { isLoopback, type ClaimWant } from './config-values.js';
export type { CacheConfig, IssuerConfig, OriginConfig, TokenSource };
export type { KeySourceConfig } from './issuers-config.js';

export interface GuardConfig extends ForwardingConfig {
  issuers: IssuerConfig[];
  publicPaths: string[];
  tokenSources: TokenSource[];
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
  /** How request paths are read, matched and forwarded (docs/deploy.md, "Request paths"). */
  paths: PathPolicy;
  /** The optional sections' values, each read with its stage's key (`corsSection.of(config)`). */
  sections: SectionValues;
  /**
   * The optional sections GUARD_CONFIG sets, read or not, in the order it writes them: each needs the stage of
   * its name (stages/needs.ts refuses a guard not given it).
   */
  sectionsSet: readonly string[];
}

/**
 * The top-level settings the core reads itself; every other name in TOP_KEYS is an optional section,
 * read by its stage (the config description test checks the two lists cover TOP_KEYS).
 *
 * @example
 * CORE_KEYS.has('cors'); // false: the cors stage's section
 */
export const CORE_KEYS: ReadonlySet<string> = new Set([
  '$schema',
  'issuers',
  'publicPaths',
  'tokenSources',
  'forwardClaims',
  'forwardPayload',
  'forwardToken',
  'origin',
  'clockTolerance',
  'realm',
  'cache',
  'jwks',
  'paths',
]);

/**
 * Parse and check GUARD_CONFIG with the sections of `stages`, given in chain order (sections read after the same
 * core check are read in that order); throws a ConfigError naming the first bad setting (a ConfigErrors when there
 * are more: config-problems.ts, every one of them).
 *
 * @example
 * const config = parseConfigWith(raw, [cors]);
 */
export function parseConfigWith(
  raw: unknown,
  stages: readonly { readonly section?: GuardSection<unknown> | undefined }[],
): GuardConfig {
  if (raw === undefined || raw === null || raw === '') throw new ConfigError('GUARD_CONFIG', 'is not set');
  const v = typeof raw === 'string' ? parseJson(raw) : raw;
  if (!isObject(v)) throw new ConfigError('GUARD_CONFIG', 'expected a JSON object');
  // Each part is checked on its own, so that one run finds every problem. A part with a
  // problem is undefined below (`part` and `!` say so once): throwAny throws before such a
  // config could be returned. What later checks read is kept as possibly undefined.
  const problems = new Problems();
  const part = <T>(check: () => T): T => problems.check(check) as T;
  const sections: Record<string, unknown> = {};
  const cx: { -readonly [K in keyof SectionContext]: SectionContext[K] } = {
    raw: v,
    issuers: undefined,
    forwardHeaders: [],
    sections,
  };
  const given = stages.flatMap((s) => (s.section === undefined ? [] : [s.section]));
  const read = new Set(given.map((s) => s.key.key));
  const readAfter = (check: CoreCheck): void => {
    for (const s of given) if (s.after === check) sections[s.key.key] = part(() => s.parse(own(v, s.key.key), cx));
  };
  // The order below is the order settings are checked in (the first problem is the one the guard names).
  part(() => knownKeys(v, '', TOP_KEYS));
  readAfter('GUARD_CONFIG');
  // Before the issuers: an issuer without its own audience takes resource.id (RFC 8707), so `resource` is read
  // first (its stage reads it after GUARD_CONFIG). Set without that stage, the issuers cannot be checked: that
  // is the first problem to name.
  part(() => {
    if (isSet(v, resourceSection.key) && !read.has(resourceSection.key)) throw stageNotGiven('resource', 'resource');
  });
  const issuers = problems.check(() => parseIssuers(v.issuers, resourceSection.of(cx)?.id));
  // Checks against the issuers are skipped when those are not known (an issuer with a problem
  // of its own): they would only report that problem again.
  cx.issuers = issuers;
  readAfter('issuers');
  const publicPaths = part(() => parsePublicPaths(v.publicPaths));
  readAfter('publicPaths');
  const tokenSources = part(() => parseTokenSources(v.tokenSources, usesCloudflareAccess(v.issuers)));
  readAfter('tokenSources');
  const forwarding = problems.check(() => parseForwarding(v));
  cx.forwardHeaders = [
    ...(forwarding?.forwardClaims.map(([, h]) => h) ?? []),
    ...(forwarding?.forwardPayload === undefined ? [] : [forwarding.forwardPayload]),
  ];
  readAfter('forwardClaims');
  const origin = part(() => parseOrigin(v.origin));
  readAfter('origin');
  const realm = part(() => parseRealm(v.realm));
  readAfter('realm');
  const jw = problems.check(() => jwksSection(v.jwks)) ?? {};
  readAfter('jwks');
  const clockTolerance = part(() => num(v.clockTolerance, 'clockTolerance', 0, 0, 600));
  readAfter('clockTolerance');
  const cache = part(() => parseCache(v.cache, new Set(issuers?.flatMap((i) => i.algorithms) ?? SUPPORTED_ALGORITHMS)));
  readAfter('cache');
  const jwksTimeoutMs = part(() => num(jw.timeoutMs, 'jwks.timeoutMs', 3_000, 100, 30_000));
  const jwksCooldownMs = part(() => num(jw.cooldownMs, 'jwks.cooldownMs', 30_000, 0, 3_600_000));
  const jwksMaxAgeMs = part(() => parseJwksMaxAge(jw.maxAgeMs));
  const jwksStaleMs = part(() => parseJwksStale(jw.staleMs));
  readAfter('jwks.maxAgeMs');
  const paths = part(() => parsePaths(v.paths));
  readAfter('paths');
  const config: GuardConfig = {
    issuers: issuers!,
    publicPaths,
    tokenSources,
    ...forwarding!,
    origin,
    clockTolerance,
    realm,
    cache,
    jwksTimeoutMs,
    jwksCooldownMs,
    jwksMaxAgeMs,
    jwksStaleMs,
    paths,
    sections,
    sectionsSet: Object.keys(v).filter((k) => !CORE_KEYS.has(k) && isSet(v, k)),
  };
  problems.throwAny();
  return config;
}

/**
 * Whether an optional section is written: set to anything but an empty list (`rules: []`, the route stage's
 * default, needs no rules stage).
 */
function isSet(v: Readonly<Record<string, unknown>>, key: string): boolean {
  const value = own(v, key);
  return value !== undefined && !(key === 'rules' && Array.isArray(value) && value.length === 0);
}

/** `v[key]` if GUARD_CONFIG itself sets it: never a member of Object.prototype (a section keyed `constructor`). */
function own(v: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(v, key) ? v[key] : undefined;
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
