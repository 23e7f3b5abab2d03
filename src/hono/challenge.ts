// The middleware's refusals (RFC 6750 §3), built by the shared bearer module, and its
// one answer that is not a refusal: a 500 when the failure is the server's (the Wasm
// core cannot start, a backend throws), never a 401 that blames the caller. They are
// thrown as a Hono HTTPException, so an `app.onError` written for Hono's own
// middleware (`err instanceof HTTPException ? err.getResponse() : …`) answers them
// as they should be answered, and `cause` still holds the real JwtError. Hono is
// imported here only: edgejwt's other entry points never load it.

import { HTTPException } from 'hono/http-exception';
import { challengeResponse, challengeStatus, type ChallengeKind } from '../bearer/challenge.js';

export type { ChallengeKind };

/**
 * What a JwtAuthError is: one of the RFC 6750 refusals, or `server_error` (500).
 *
 * @example
 * const kind: JwtAuthErrorKind = 'server_error';
 */
export type JwtAuthErrorKind = ChallengeKind | 'server_error';

export interface ChallengeDetails {
  realm: string;
  description: string;
  scopes?: readonly string[];
  /** Seconds, for `unavailable`. */
  retryAfter?: number;
  cause?: unknown;
}

/** The fixed public text of a server-side failure: nothing of the cause reaches the client. */
export const SERVER_ERROR_DESCRIPTION = 'The access token could not be checked';

function serverErrorResponse(): Response {
  const body = JSON.stringify({ error: 'server_error', error_description: SERVER_ERROR_DESCRIPTION });
  return new Response(body, {
    status: 500,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * The error `jwtAuth` throws: a Hono `HTTPException` whose `getResponse()` is the
 * RFC 6750 answer (401, 400, 403, 503) or, for `server_error`, a 500.
 *
 * @example
 * import { HTTPException } from 'hono/http-exception';
 * app.onError((err, c) => (err instanceof HTTPException ? err.getResponse() : c.text('error', 500)));
 */
export class JwtAuthError extends HTTPException {
  readonly kind: JwtAuthErrorKind;
  readonly #details: ChallengeDetails;

  constructor(kind: JwtAuthErrorKind, details: ChallengeDetails) {
    const status = kind === 'server_error' ? 500 : challengeStatus(kind);
    super(status as 500, { message: details.description, cause: details.cause });
    // Hono releases before `cause` was an HTTPException option drop it: set it here too.
    if (details.cause !== undefined && this.cause !== details.cause)
      Object.defineProperty(this, 'cause', { value: details.cause, configurable: true, writable: true });
    this.name = 'JwtAuthError';
    this.kind = kind;
    this.#details = details;
  }

  /** The response for this error, made anew on each call (its body can be read once). */
  override getResponse(): Response {
    if (this.kind === 'server_error') return serverErrorResponse();
    const { realm, description, scopes, retryAfter } = this.#details;
    return challengeResponse(this.kind, {
      realm,
      description,
      ...(scopes === undefined ? {} : { scopes }),
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
  }
}
