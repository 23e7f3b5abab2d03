// The origin assertion: for every request the guard forwards after a verified
// token, a short-lived JWT signed by the guard (iss = the guard, aud = the origin,
// the chosen claims, a fresh jti), so the origin checks a signature instead of
// trusting plain X-Auth-* headers. The public key set is served at `jwksPath`.
// The private JWK comes from a secret binding and is imported once per isolate.

import { algSpec, type Algorithm } from '../algorithms.js';
import { ownClaim, type JWTPayload } from '../claims.js';
import { encode } from '../b64.js';
import { createSigner, type Signer } from '../sign/signer.js';
import type { PrivateJWK } from '../sign/keys.js';
import { digest } from '../digest.js';
import { ConfigError } from './config-error.js';

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

/** Every setting `originAssertion` accepts (the JSON Schema is tested against these). */
export const ORIGIN_ASSERTION_KEYS: ReadonlySet<string> = new Set(['header', 'alg', 'ttl', 'claims', 'keyBinding', 'jwksPath', 'issuer', 'audience']);
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const RESERVED = new Set(['authorization', 'cookie', 'host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'server-timing']);

function fail(setting: string, reason: string): ConfigError {
  return new ConfigError(`originAssertion.${setting}`, reason);
}

/** Check the `originAssertion` setting; undefined when it is absent. */
export function parseOriginAssertion(v: unknown, forwardHeaders: readonly string[]): OriginAssertionConfig | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError('originAssertion', 'expected an object');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!ORIGIN_ASSERTION_KEYS.has(k)) throw fail(k, 'unknown setting');
  const header = o.header ?? 'X-Edgejwt-Assertion';
  if (typeof header !== 'string' || !HTTP_TOKEN.test(header) || RESERVED.has(header.toLowerCase())) throw fail('header', 'not a usable header name');
  if (forwardHeaders.some((h) => h.toLowerCase().replaceAll('_', '-') === header.toLowerCase().replaceAll('_', '-'))) throw fail('header', 'already used by forwardClaims or forwardPayload');
  const alg = o.alg ?? 'EdDSA';
  const spec = typeof alg === 'string' ? algSpec(alg) : undefined;
  // A published key set cannot serve an HMAC secret.
  if (spec === undefined || spec.engine === 'hmac') throw fail('alg', 'expected an asymmetric algorithm (EdDSA, ES256, RS256, ...)');
  const ttl = o.ttl ?? 60;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > 3600) throw fail('ttl', 'expected whole seconds from 1 to 3600');
  const claims = o.claims ?? ['sub'];
  if (!Array.isArray(claims) || claims.some((c) => typeof c !== 'string' || ['iss', 'aud', 'exp', 'iat', 'nbf', 'jti'].includes(c))) {
    throw fail('claims', 'expected claim names (iss, aud, exp, iat, nbf, jti are set by the guard)');
  }
  if (typeof o.keyBinding !== 'string' || o.keyBinding.length === 0) throw fail('keyBinding', 'expected the name of the secret holding the private JWK');
  const jwksPath = o.jwksPath ?? '/.well-known/edgejwt/jwks.json';
  if (typeof jwksPath !== 'string' || !jwksPath.startsWith('/')) throw fail('jwksPath', 'a path must start with /');
  for (const k of ['issuer', 'audience'] as const) if (o[k] !== undefined && (typeof o[k] !== 'string' || o[k] === '')) throw fail(k, 'expected a non-empty string');
  return { header, alg: spec.alg as Algorithm, ttl, claims: claims as string[], keyBinding: o.keyBinding, jwksPath, issuer: o.issuer as string | undefined, audience: o.audience as string | undefined };
}

/** RFC 7638 thumbprint: the key id when the JWK has none. */
function thumbprint(jwk: Record<string, unknown>): string {
  const members = jwk.kty === 'RSA' ? ['e', 'kty', 'n'] : jwk.kty === 'EC' ? ['crv', 'kty', 'x', 'y'] : ['crv', 'kty', 'x'];
  const canonical = JSON.stringify(Object.fromEntries(members.map((m) => [m, jwk[m]])));
  return encode(digest('SHA-256', canonical));
}

export class OriginAssertion {
  readonly config: OriginAssertionConfig;
  readonly #signer: Signer;
  readonly #jwks: string;
  readonly #lowerHeader: string;

  private constructor(config: OriginAssertionConfig, signer: Signer, jwks: string) {
    this.config = config;
    this.#signer = signer;
    this.#jwks = jwks;
    this.#lowerHeader = config.header.toLowerCase().replaceAll('_', '-');
  }

  /** Read the private JWK from its secret binding and build the signer (ConfigError if unusable). */
  static fromEnv(config: OriginAssertionConfig, env: Record<string, unknown>): OriginAssertion {
    const raw = env[config.keyBinding];
    let jwk: Record<string, unknown>;
    try {
      jwk = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
    } catch {
      throw fail('keyBinding', 'the secret is not a JSON private JWK');
    }
    if (typeof jwk !== 'object' || jwk === null || typeof jwk.d !== 'string') throw fail('keyBinding', 'the secret is not set or not a private JWK');
    const kid = typeof jwk.kid === 'string' ? jwk.kid : thumbprint(jwk);
    let signer: Signer;
    try {
      signer = createSigner({ alg: config.alg, key: jwk as unknown as PrivateJWK, header: { kid } });
    } catch {
      throw fail('keyBinding', `the key does not fit ${config.alg}`);
    }
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, k: _k, key_ops: _ops, ext: _ext, ...pub } = jwk;
    const jwks = JSON.stringify({ keys: [{ ...pub, kid, alg: config.alg, use: 'sig' }] });
    return new OriginAssertion(config, signer, jwks);
  }

  /** The assertion key set, when `url` is its path (undefined: carry on). */
  keySet(url: { readonly pathname: string }): Response | undefined {
    if (url.pathname !== this.config.jwksPath) return undefined;
    return new Response(this.#jwks, { headers: { 'content-type': 'application/jwk-set+json', 'cache-control': 'public, max-age=300' } });
  }

  /** Drop any copy of the assertion header a client sent, in every spelling an origin may read as the same name. */
  dropClientCopies(headers: Headers): void {
    // CGI, WSGI, PHP map `_` and `-` alike, as for forwarded claims.
    const drop: string[] = [];
    headers.forEach((_, name) => {
      if (name.replaceAll('_', '-') === this.#lowerHeader) drop.push(name);
    });
    for (const name of drop) headers.delete(name);
  }

  /** Sign the assertion for a verified `payload` into `headers` (the request forwarded to `origin`). */
  async stamp(headers: Headers, payload: JWTPayload, guardUrl: URL, origin: string | undefined): Promise<void> {
    const claims: Record<string, unknown> = {};
    // Only claims the payload carries itself: never an inherited name such as `constructor`.
    for (const name of this.config.claims) {
      const value = ownClaim(payload, name);
      if (value !== undefined) claims[name] = value;
    }
    const c = this.config;
    const jwt = await this.#signer.sign(claims, {
      expiresIn: c.ttl,
      issuer: c.issuer ?? guardUrl.origin,
      audience: c.audience ?? (origin === undefined || origin.startsWith('builtin:') ? guardUrl.origin : new URL(origin).origin),
      jwtId: crypto.randomUUID(),
    });
    headers.set(c.header, jwt);
  }
}
