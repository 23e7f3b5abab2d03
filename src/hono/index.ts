// edgejwt/hono: a Hono middleware that verifies the request's JWT with an
// edgejwt verifier built once, puts the payload on the context, and refuses
// per RFC 6750. From Hono it imports only HTTPException (./challenge.ts).

import type { Env, MiddlewareHandler } from 'hono';
import type { JWTPayload } from '../claims.js';
import { isJwtError } from '../errors.js';
import type { JoseHeader } from '../header.js';
import { checkOptionNames, definedOnly, type OptionNames } from '../option-names.js';
import { optionsError } from '../options-error.js';
import { VERIFIER_OPTION_NAMES } from '../verify-path.js';
import { createVerifier, type Verifier, type VerifierOptions, type VerifierSettings } from '../verifier.js';
import {
  DESCRIPTIONS,
  keysUnavailable,
  publicDescription,
  retryAfterSeconds,
  serverFault,
} from '../bearer/challenge.js';
import { hasScopes } from '../bearer/scopes.js';
import { findToken, type TokenSource } from '../bearer/token.js';
import { unprovenConfirmation } from '../bearer/confirmation.js';
import { JwtAuthError, SERVER_ERROR_DESCRIPTION } from './challenge.js';
import { checkAuthSettings } from './options.js';

export { JwtAuthError } from './challenge.js';
export type { ChallengeKind, JwtAuthErrorKind } from './challenge.js';

/**
 * jwtAuth's options: a verifier's (VerifierOptions), or a `verifier` to share,
 * plus where the token is read from and what the route requires.
 * @example
 * app.use('/api/*', jwtAuth({ algorithms: ['ES256'], jwks, audience: 'api', scopes: ['read'] }));
 */
export type JwtAuthOptions = (
  VerifierOptions | ({ [K in keyof VerifierSettings]?: undefined } & { verifier: Verifier })
) &
  JwtAuthSettings;

/** The settings of JwtAuthOptions that are the middleware's own. */
export interface JwtAuthSettings {
  /**
   * A verifier to share with other code (then no verifier option may be given here); otherwise one is built from the
   * other options.
   */
  verifier?: Verifier;
  /**
   * Read the token from the cookie of this name when there is no Authorization header (hono's signed-cookie object is
   * refused).
   */
  cookie?: string;
  /** `realm` in WWW-Authenticate (default "edgejwt"). */
  realm?: string;
  /** Scopes the token must hold (`scope` as a space-separated string, or `scp`): else 403. */
  scopes?: readonly string[];
  /**
   * Retry-After of a 503 (keys unavailable), seconds: set it to your key set's cooldown (default 30, the library's).
   */
  retryAfter?: number;
  /**
   * Optional authentication: a request with no token at all goes on with no `jwtPayload`
   * (Envoy's allow_missing); a token that is present but bad or malformed is still refused.
   */
  optional?: boolean;
  /**
   * Where the one line about a 5xx goes (the keys are unavailable, the Wasm core cannot
   * start, a backend throws): JSON naming the status and error code, never the token or a
   * key. Default `console.error`.
   */
  log?: (line: string) => void;
}

// Tied to JwtAuthOptions by `satisfies`: a new option that is not listed here does not compile.
const JWT_AUTH_OPTION_NAMES = {
  ...VERIFIER_OPTION_NAMES,
  verifier: true,
  cookie: true,
  realm: true,
  scopes: true,
  retryAfter: true,
  optional: true,
  log: true,
} as const satisfies OptionNames<Required<JwtAuthOptions>>;

/**
 * What the middleware sets on the context (with `optional`, both are undefined when no token was sent).
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

/** The app's bindings type (`c.env`), or a plain record when the app declares none. */
export type BindingsOf<E extends Env> = E extends { Bindings: infer B } ? B : Record<string, unknown>;

/** Options, or a function that makes them from `c.env` (secrets in Workers arrive there). */
export type JwtAuthConfig<E extends Env> = JwtAuthOptions | ((env: BindingsOf<E>) => JwtAuthOptions);

interface Prepared {
  verifier: Verifier;
  sources: TokenSource[];
  realm: string;
  scopes: readonly string[];
  retryAfter: number;
  optional: boolean;
  log: (line: string) => void;
}

const defaultLog = (line: string): void => console.error(line);

/** Log one line naming the failure's code, and make the 500 that answers it. */
function serverError(e: unknown, log: (line: string) => void, realm: string): JwtAuthError {
  logFault(e, 500, log);
  return new JwtAuthError('server_error', { realm, description: SERVER_ERROR_DESCRIPTION, cause: e });
}

/** The one line of a 5xx: its status and code (or `internal_error`), never its message, the token or a key. */
function logFault(e: unknown, status: 500 | 503, log: (line: string) => void): void {
  const code = isJwtError(e) ? e.code : 'internal_error';
  try {
    log(JSON.stringify({ edgejwt: 'error', status, code, name: e instanceof Error ? e.name : typeof e }));
  } catch {
    // A logger that throws must not turn the 5xx into something else.
  }
}

function prepare(options: JwtAuthOptions): Prepared {
  if (typeof options !== 'object' || options === null) throw optionsError('options', 'an options object');
  // Static and lazy options alike: a misspelt name (`audiance`) or a mistyped value
  // (`optional: 'false'`) must not quietly turn a check off.
  checkOptionNames(options, JWT_AUTH_OPTION_NAMES);
  checkAuthSettings(options as unknown as Record<string, unknown>);
  const {
    verifier: given,
    cookie,
    realm = 'edgejwt',
    scopes = [],
    retryAfter = retryAfterSeconds(),
    optional = false,
    log = defaultLog,
    ...verifierOptions
  } = definedOnly(options);
  const sources: TokenSource[] =
    cookie === undefined ? [{ header: 'Authorization' }] : [{ header: 'Authorization' }, { cookie }];
  // Built here, once: keys are imported once, not per request.
  const verifier = given ?? createVerifier(verifierOptions as VerifierOptions);
  return { verifier, sources, realm, scopes, retryAfter, optional, log };
}

/**
 * Hono middleware: verifies the request's bearer token (Authorization header, then
 * the `cookie` if set) with a verifier built once, sets `jwtPayload` and `jwtHeader`
 * on the context, and refuses per RFC 6750 by throwing a JwtAuthError (a Hono
 * HTTPException: 401, 400, 403 for missing scopes, 503 when the keys are unavailable).
 * A failure that is not the token's (the Wasm core cannot start, a backend throws,
 * options from `c.env` that do not hold) is a 500 (`kind: 'server_error'`) and one
 * line to `log` naming the code, never a 401; a 503 logs its line too. Token extraction, challenges and the
 * scope check are the route guard's own (src/bearer/).
 *
 * `options` may be a function of `c.env`: it is called once per env object (once per isolate
 * in Workers) and the verifier it builds is reused.
 * @example
 * type AppEnv = { Bindings: { JWT_SECRET: string } } & JwtAuthEnv;
 * const app = new Hono<AppEnv>();
 * app.use(
 *   '/api/*',
 *   jwtAuth<AppEnv>((env) => ({
 *     algorithms: ['HS256'],
 *     key: new TextEncoder().encode(env.JWT_SECRET),
 *     audience: 'api',
 *   })),
 * );
 * app.get('/api/me', (c) => c.json({ sub: c.get('jwtPayload').sub }));
 */
export function jwtAuth<E extends Env = JwtAuthEnv, P extends JWTPayload = JWTPayload>(
  options: JwtAuthConfig<E>,
): MiddlewareHandler<E & JwtAuthEnv<P>> {
  // Static options fail when the middleware is made; lazy ones on the first request.
  const fixed = typeof options === 'function' ? undefined : prepare(options);
  const byEnv = new WeakMap<object, Prepared>();
  let noEnv: Prepared | undefined;
  const lazy = (env: unknown): Prepared => {
    const make = options as (env: BindingsOf<E>) => JwtAuthOptions;
    if (typeof env !== 'object' || env === null) return (noEnv ??= prepare(make((env ?? {}) as BindingsOf<E>)));
    let p = byEnv.get(env);
    if (p === undefined) byEnv.set(env, (p = prepare(make(env as BindingsOf<E>))));
    return p;
  };

  return async (c, next) => {
    let prepared: Prepared;
    try {
      prepared = fixed ?? lazy(c.env);
    } catch (e) {
      // Options made from c.env that do not hold: the deployment's fault, not the caller's.
      throw serverError(e, defaultLog, 'edgejwt');
    }
    const { verifier, sources, realm, scopes, retryAfter, optional, log } = prepared;
    const found = findToken({ get: (name) => c.req.header(name) }, sources);
    if (found.kind === 'none') {
      if (optional) return next();
      throw new JwtAuthError('missing', { realm, description: DESCRIPTIONS.missing });
    }
    if (found.kind === 'malformed')
      throw new JwtAuthError('invalid_request', { realm, description: DESCRIPTIONS.invalid_request });

    let result;
    try {
      result = await verifier.verify<P>(found.token);
    } catch (e) {
      // The core cannot start, a backend throws, a sync call where a step must wait: a 500, logged.
      if (!isJwtError(e) || serverFault(e.code)) throw serverError(e, log, realm);
      if (keysUnavailable(e.code)) {
        // The issuer's side, not the caller's: a 503, and a line saying why (the guard's keys_unavailable).
        logFault(e, 503, log);
        throw new JwtAuthError('unavailable', { realm, description: DESCRIPTIONS.unavailable, retryAfter, cause: e });
      }
      throw new JwtAuthError('invalid_token', { realm, description: publicDescription(e.code), cause: e });
    }

    // A token bound to a key (cnf) is no bearer token, and this middleware proves no key (RFC 9449 §7.2, RFC 8705 §3).
    if (unprovenConfirmation(result.payload, {}) !== undefined)
      throw new JwtAuthError('invalid_token', { realm, description: DESCRIPTIONS.unproven_confirmation });

    if (!hasScopes(result.payload, scopes)) {
      throw new JwtAuthError('insufficient_scope', { realm, description: DESCRIPTIONS.insufficient_scope, scopes });
    }
    c.set('jwtPayload', result.payload);
    c.set('jwtHeader', result.header);
    await next();
  };
}
