// The `originAssertion` section: a short-lived JWT the guard signs for the origin
// on every forwarded authenticated request. Only the check of the setting lives
// here, so parsing a config does not load the signer (origin-assertion.ts, loaded
// by build.ts only when the section is set).

import { algSpec, type Algorithm } from '../../../algorithms.js';
import { ConfigError } from '../../config-error.js';
import { ORIGIN_ASSERTION_KEYS } from '../../config-keys.js';
import { knownKeys } from '../../config-problems.js';

export interface OriginAssertionConfig {
  header: string;
  alg: Algorithm;
  /** Seconds the assertion is valid. */
  ttl: number;
  claims: string[];
  keyBinding: string;
  jwksPath: string;
  /** `iss`; default: the guard's own origin (scheme://host of the request). */
  issuer: string | undefined;
  /** `aud`; default: the configured origin (or the request's origin when none is set). */
  audience: string | undefined;
}

const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const RESERVED = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'server-timing',
]);

/** A ConfigError for `originAssertion.<setting>`. */
export function fail(setting: string, reason: string): ConfigError {
  return new ConfigError(`originAssertion.${setting}`, reason);
}

/** Check the `originAssertion` setting; undefined when it is absent. */
export function parseOriginAssertion(v: unknown, forwardHeaders: readonly string[]): OriginAssertionConfig | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new ConfigError('originAssertion', 'expected an object');
  const o = v as Record<string, unknown>;
  knownKeys(o, 'originAssertion', ORIGIN_ASSERTION_KEYS);
  const header = o.header ?? 'X-Edgejwt-Assertion';
  if (typeof header !== 'string' || !HTTP_TOKEN.test(header) || RESERVED.has(header.toLowerCase()))
    throw fail('header', 'not a usable header name');
  if (forwardHeaders.some((h) => h.toLowerCase().replaceAll('_', '-') === header.toLowerCase().replaceAll('_', '-')))
    throw fail('header', 'already used by forwardClaims or forwardPayload');
  const alg = o.alg ?? 'EdDSA';
  const spec = typeof alg === 'string' ? algSpec(alg) : undefined;
  // A published key set cannot serve an HMAC secret.
  if (spec === undefined || spec.engine === 'hmac')
    throw fail('alg', 'expected an asymmetric algorithm (EdDSA, ES256, RS256, ...)');
  const ttl = o.ttl ?? 60;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > 3600)
    throw fail('ttl', 'expected whole seconds from 1 to 3600');
  const claims = o.claims ?? ['sub'];
  if (
    !Array.isArray(claims) ||
    claims.some((c) => typeof c !== 'string' || ['iss', 'aud', 'exp', 'iat', 'nbf', 'jti', 'cnf'].includes(c))
  ) {
    // cnf is what this request proved (origin-assertion.ts), never the token's copy.
    throw fail('claims', 'expected claim names (iss, aud, exp, iat, nbf, jti, cnf are set by the guard)');
  }
  if (typeof o.keyBinding !== 'string' || o.keyBinding.length === 0)
    throw fail('keyBinding', 'expected the name of the secret holding the private JWK');
  const jwksPath = o.jwksPath ?? '/.well-known/edgejwt/jwks.json';
  if (typeof jwksPath !== 'string' || !jwksPath.startsWith('/')) throw fail('jwksPath', 'a path must start with /');
  for (const k of ['issuer', 'audience'] as const)
    if (o[k] !== undefined && (typeof o[k] !== 'string' || o[k] === '')) throw fail(k, 'expected a non-empty string');
  return {
    header,
    alg: spec.alg as Algorithm,
    ttl,
    claims: claims as string[],
    keyBinding: o.keyBinding,
    jwksPath,
    issuer: o.issuer as string | undefined,
    audience: o.audience as string | undefined,
  };
}
