// The origin assertion: for every request the guard forwards after a verified
// token, a short-lived JWT signed by the guard (iss = the guard, aud = the origin,
// the chosen claims, a fresh jti), so the origin checks a signature instead of
// trusting plain X-Auth-* headers. The public key set is served at `jwksPath`.
// The private JWK comes from a secret binding and is imported once per isolate.

import type { ProvenKeys } from '../../../bearer/confirmation.js';
import { ownClaim, type JWTPayload } from '../../../claims.js';
import { createSigner, type Signer } from '../../../sign/signer.js';
import type { PrivateJWK } from '../../../sign/keys.js';
import { jwkThumbprint } from '../../../keys/thumbprint.js';
import { fail, type OriginAssertionConfig } from './origin-assertion-config.js';

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
    if (typeof jwk !== 'object' || jwk === null || typeof jwk.d !== 'string')
      throw fail('keyBinding', 'the secret is not set or not a private JWK');
    let kid: string;
    let signer: Signer;
    try {
      // The key id, when the JWK has none, is its RFC 7638 thumbprint (which refuses a key missing a required member).
      kid = typeof jwk.kid === 'string' ? jwk.kid : jwkThumbprint(jwk);
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
    return new Response(this.#jwks, {
      headers: { 'content-type': 'application/jwk-set+json', 'cache-control': 'public, max-age=300' },
    });
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

  /**
   * Sign the assertion for a verified `payload` into `headers` (the request forwarded to `origin`).
   * `proven`: what the sender-constraint stages proved; it becomes the assertion's `cnf`
   * (never the token's own `cnf`: origin-assertion-config.ts refuses it among the claims).
   */
  async stamp(
    headers: Headers,
    payload: JWTPayload,
    guardUrl: URL,
    origin: string | undefined,
    proven: ProvenKeys = {},
  ): Promise<void> {
    const claims: Record<string, unknown> = {};
    // Only claims the payload carries itself: never an inherited name such as `constructor`.
    for (const name of this.config.claims) {
      const value = ownClaim(payload, name);
      if (value !== undefined) claims[name] = value;
    }
    // The origin learns the request was sender-constrained, and by which key (RFC 7800 cnf members).
    if (proven.jkt !== undefined || proven.x5t !== undefined) {
      claims.cnf = {
        ...(proven.jkt === undefined ? {} : { jkt: proven.jkt }),
        ...(proven.x5t === undefined ? {} : { 'x5t#S256': proven.x5t }),
      };
    }
    const c = this.config;
    const jwt = await this.#signer.sign(claims, {
      expiresIn: c.ttl,
      issuer: c.issuer ?? guardUrl.origin,
      audience:
        c.audience ??
        (origin === undefined || origin.startsWith('builtin:') ? guardUrl.origin : new URL(origin).origin),
      jwtId: crypto.randomUUID(),
    });
    headers.set(c.header, jwt);
  }
}
