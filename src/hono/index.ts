// edgejwt/hono: a Hono middleware that verifies the request's JWT with an
// edgejwt verifier built once, puts the payload on the context, and refuses
// per RFC 6750. Hono is only a type here: nothing from it is imported at run time.

import type { MiddlewareHandler } from 'hono';
import type { JWTPayload } from '../claims.js';
import { isJwtError } from '../errors.js';
import type { JoseHeader } from '../header.js';
import { createVerifier, type Verifier, type VerifierOptions } from '../verifier.js';
import { DESCRIPTIONS, keysUnavailable, publicDescription, retryAfterSeconds } from '../bearer/challenge.js';
import { hasScopes } from '../bearer/scopes.js';
import { findToken, type TokenSource } from '../bearer/token.js';
import { JwtAuthError } from './challenge.js';

export { JwtAuthError } from './challenge.js';
export type { ChallengeKind } from './challenge.js';

export interface JwtAuthOptions extends VerifierOptions {
  /** A verifier to share with other code; otherwise one is built from the other options. */
  verifier?: Verifier;
  /** Read the token from this cookie when there is no Authorization header. */
  cookie?: string;
  /** `realm` in WWW-Authenticate (default "edgejwt"). */
  realm?: string;
  /** Scopes the token must hold (`scope` as a space-separated string, or `scp`): else 403. */
  scopes?: readonly string[];
  /** Retry-After of a 503 (keys unavailable), seconds: set it to your key set's cooldown (default 30, the library's). */
  retryAfter?: number;
}

/** What the middleware sets on the context. */
export interface JwtAuthVariables<P = JWTPayload> {
  jwtPayload: P;
  jwtHeader: JoseHeader;
}

export type JwtAuthEnv<P = JWTPayload> = { Variables: JwtAuthVariables<P> };

export function jwtAuth<P extends JWTPayload = JWTPayload>(options: JwtAuthOptions): MiddlewareHandler<JwtAuthEnv<P>> {
  const { verifier: given, cookie, realm = 'edgejwt', scopes = [], retryAfter = retryAfterSeconds(), ...verifierOptions } = options;
  const sources: TokenSource[] = cookie === undefined ? [{ header: 'Authorization' }] : [{ header: 'Authorization' }, { cookie }];
  // Built here, once: keys are imported once, not per request.
  const verifier = given ?? createVerifier(verifierOptions);

  return async (c, next) => {
    const found = findToken({ get: (name) => c.req.header(name) }, sources);
    if (found.kind === 'none') throw new JwtAuthError('missing', { realm, description: DESCRIPTIONS.missing });
    if (found.kind === 'malformed') throw new JwtAuthError('invalid_request', { realm, description: DESCRIPTIONS.invalid_request });

    let result;
    try {
      result = await verifier.verify<P>(found.token);
    } catch (e) {
      if (!isJwtError(e)) throw e;
      if (keysUnavailable(e.code)) throw new JwtAuthError('unavailable', { realm, description: DESCRIPTIONS.unavailable, retryAfter, cause: e });
      throw new JwtAuthError('invalid_token', { realm, description: publicDescription(e.code), cause: e });
    }

    if (!hasScopes(result.payload, scopes)) {
      throw new JwtAuthError('insufficient_scope', { realm, description: DESCRIPTIONS.insufficient_scope, scopes });
    }
    c.set('jwtPayload', result.payload);
    c.set('jwtHeader', result.header);
    await next();
  };
}
