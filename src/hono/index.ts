// edgejwt/hono: a Hono middleware that verifies the request's JWT with an
// edgejwt verifier built once, puts the payload on the context, and refuses
// per RFC 6750. Hono is only a type here: nothing from it is imported at run time.

import type { MiddlewareHandler } from 'hono';
import { ownClaim, type JWTPayload } from '../claims.js';
import { isJwtError, type JwtErrorCode } from '../errors.js';
import type { JoseHeader } from '../header.js';
import { VERIFIER_OPTION_NAMES, checkOptionNames, type OptionNames } from '../option-names.js';
import { createVerifier, type Verifier, type VerifierOptions, type VerifierSettings } from '../verifier.js';
import { publicDescription } from '../worker/responses.js';
import { JwtAuthError } from './challenge.js';
import { fromAuthorization, fromCookie } from './token.js';

export { JwtAuthError } from './challenge.js';
export type { ChallengeKind } from './challenge.js';

/**
 * jwtAuth's options: a verifier's (VerifierOptions), or a `verifier` to share,
 * plus where the token is read from and what the route requires.
 * @example
 * app.use('/api/*', jwtAuth({ algorithms: ['ES256'], jwks, audience: 'api', scopes: ['read'] }));
 */
export type JwtAuthOptions = (VerifierOptions | (Partial<VerifierSettings> & { verifier: Verifier })) & JwtAuthSettings;

/** The settings of JwtAuthOptions that are the middleware's own. */
export interface JwtAuthSettings {
  /** A verifier to share with other code; otherwise one is built from the other options. */
  verifier?: Verifier;
  /** Read the token from this cookie when there is no Authorization header. */
  cookie?: string;
  /** `realm` in WWW-Authenticate (default "edgejwt"). */
  realm?: string;
  /** Scopes the token must hold (`scope` as a space-separated string, or `scp`): else 403. */
  scopes?: readonly string[];
}

const JWT_AUTH_OPTION_NAMES = {
  ...VERIFIER_OPTION_NAMES, verifier: true, cookie: true, realm: true, scopes: true,
} as const satisfies OptionNames<Required<JwtAuthOptions>>;

/**
 * What the middleware sets on the context.
 *
 * @example
 * app.get('/me', (c) => c.json({ sub: c.get('jwtPayload').sub, kid: c.get('jwtHeader').kid }));
 */
export interface JwtAuthVariables<P = JWTPayload> {
  jwtPayload: P;
  jwtHeader: JoseHeader;
}

/**
 * The Hono Env the middleware adds, for typing an app or a route.
 *
 * @example
 * const app = new Hono<JwtAuthEnv<{ sub: string; tenant: string }>>();
 */
export type JwtAuthEnv<P = JWTPayload> = { Variables: JwtAuthVariables<P> };

/** Codes that mean the issuer's keys could not be had: not the client's fault. */
const UNAVAILABLE = new Set<JwtErrorCode>(['ERR_JWKS_FETCH_FAILED', 'ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID']);

function grantedScopes(payload: JWTPayload): Set<string> {
  const out = new Set<string>();
  const scope = ownClaim(payload, 'scope');
  const scp = ownClaim(payload, 'scp');
  if (typeof scope === 'string') for (const s of scope.split(' ')) if (s !== '') out.add(s);
  const list = typeof scp === 'string' ? scp.split(' ') : Array.isArray(scp) ? scp : [];
  for (const s of list) if (typeof s === 'string' && s !== '') out.add(s);
  return out;
}

/**
 * Hono middleware: verifies the request's bearer token (Authorization header, then
 * the `cookie` if set) with a verifier built once, sets `jwtPayload` and `jwtHeader`
 * on the context, and refuses per RFC 6750 by throwing a JwtAuthError (401, 400,
 * 403 for missing scopes, 503 when the keys are unavailable).
 *
 * @example
 * import { Hono } from 'hono';
 * import { createRemoteJWKSet } from 'edgejwt';
 * import { jwtAuth } from 'edgejwt/hono';
 *
 * const app = new Hono();
 * app.use('/api/*', jwtAuth({ algorithms: ['RS256'], jwks: createRemoteJWKSet(jwksUrl), issuer, audience: 'api', scopes: ['orders:read'] }));
 * app.get('/api/me', (c) => c.json({ sub: c.get('jwtPayload').sub }));
 */
export function jwtAuth<P extends JWTPayload = JWTPayload>(options: JwtAuthOptions): MiddlewareHandler<JwtAuthEnv<P>> {
  // A misspelt name (`audiance`) must not quietly turn a check off.
  if (typeof options === 'object' && options !== null) checkOptionNames(options, JWT_AUTH_OPTION_NAMES);
  const { verifier: given, cookie, realm = 'edgejwt', scopes = [], ...verifierOptions } = options;
  // Built here, once: keys are imported once, not per request.
  const verifier = given ?? createVerifier(verifierOptions as VerifierOptions);

  return async (c, next) => {
    let found = fromAuthorization(c.req.header('authorization'));
    if (found.kind === 'none' && cookie !== undefined) found = fromCookie(c.req.header('cookie'), cookie);
    if (found.kind === 'none') throw new JwtAuthError('missing', { realm, description: 'An access token is required' });
    if (found.kind === 'malformed') throw new JwtAuthError('invalid_request', { realm, description: 'The access token is malformed' });

    let result;
    try {
      result = await verifier.verify<P>(found.token);
    } catch (e) {
      if (!isJwtError(e)) throw e;
      if (UNAVAILABLE.has(e.code)) throw new JwtAuthError('unavailable', { realm, description: 'Signing keys are unavailable', cause: e });
      throw new JwtAuthError('invalid_token', { realm, description: publicDescription(e.code), cause: e });
    }

    if (scopes.length > 0) {
      const granted = grantedScopes(result.payload);
      if (!scopes.every((s) => granted.has(s))) {
        throw new JwtAuthError('insufficient_scope', { realm, description: 'The access token lacks a required scope', scopes });
      }
    }
    c.set('jwtPayload', result.payload);
    c.set('jwtHeader', result.header);
    await next();
  };
}
