// The middleware's refusals (RFC 6750 §3), built by the shared bearer module.
// They are thrown as an error that Hono's error handler turns into the response
// (its `getResponse` contract, as Hono's own HTTPException), so `app.onError`
// still sees the real JwtError as `cause`.

import { challengeResponse, challengeStatus, type ChallengeKind } from '../bearer/challenge.js';

export type { ChallengeKind };

export interface ChallengeDetails {
  realm: string;
  description: string;
  scopes?: readonly string[];
  /** Seconds, for `unavailable`. */
  retryAfter?: number;
  cause?: unknown;
}

/**
 * The error `jwtAuth` throws; `getResponse()` is the RFC 6750 answer.
 * @example app.onError((err, c) => (err instanceof JwtAuthError ? err.getResponse() : c.text('error', 500)))
 */
export class JwtAuthError extends Error {
  readonly status: number;
  readonly kind: ChallengeKind;
  readonly #details: ChallengeDetails;

  constructor(kind: ChallengeKind, details: ChallengeDetails) {
    super(details.description, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'JwtAuthError';
    this.kind = kind;
    this.status = challengeStatus(kind);
    this.#details = details;
  }

  /** What Hono sends when nothing else handles the error. */
  getResponse(): Response {
    const { realm, description, scopes, retryAfter } = this.#details;
    return challengeResponse(this.kind, { realm, description, ...(scopes === undefined ? {} : { scopes }), ...(retryAfter === undefined ? {} : { retryAfter }) });
  }
}
