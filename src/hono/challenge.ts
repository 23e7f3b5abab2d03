// The middleware's refusals (RFC 6750 §3). They are thrown as an error that
// Hono's error handler turns into the response (its `getResponse` contract, as
// Hono's own HTTPException), so `app.onError` still sees the real JwtError as
// `cause`. The client sees one fixed message per case, never the token.

import { quote } from '../worker/responses.js';

export type ChallengeKind = 'missing' | 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'unavailable';

const STATUS: Record<ChallengeKind, number> = {
  missing: 401,
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  unavailable: 503,
};

export interface ChallengeDetails {
  realm: string;
  description: string;
  scopes?: readonly string[];
  cause?: unknown;
}

export class JwtAuthError extends Error {
  readonly status: number;
  readonly kind: ChallengeKind;
  readonly #details: ChallengeDetails;

  constructor(kind: ChallengeKind, details: ChallengeDetails) {
    super(details.description, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'JwtAuthError';
    this.kind = kind;
    this.status = STATUS[kind];
    this.#details = details;
  }

  /** What Hono sends when nothing else handles the error. */
  getResponse(): Response {
    const { realm, description, scopes } = this.#details;
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
    if (this.kind === 'unavailable') {
      headers['retry-after'] = '5';
    } else if (this.kind === 'missing') {
      // §3.1: no error code when the request carried no credentials at all.
      headers['www-authenticate'] = `Bearer realm=${quote(realm)}`;
    } else {
      const scope = this.kind === 'insufficient_scope' && scopes !== undefined && scopes.length > 0 ? `, scope=${quote(scopes.join(' '))}` : '';
      headers['www-authenticate'] = `Bearer realm=${quote(realm)}, error="${this.kind}", error_description=${quote(description)}${scope}`;
    }
    const error = this.kind === 'missing' ? 'unauthorized' : this.kind === 'unavailable' ? 'temporarily_unavailable' : this.kind;
    return new Response(JSON.stringify({ error, error_description: description }), { status: this.status, headers });
  }
}
