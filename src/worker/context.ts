// What one request carries through the chain (runner.ts): set by the stage that
// learns it, read by the stages after it, instead of positional arguments.

import type { JWTPayload } from '../claims.js';
import type { JoseHeader } from '../header.js';
import type { OpenedToken } from '../verify-path.js';
import type { RequestTarget } from './request-url.js';
import type { CanonicalPath } from './stages/path/path.js';
import type { Matched } from './stages/route/rules.js';

export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

/** Which tier answered the verify: this isolate's L1, the KV L2, or the library just now. */
export type Level = 'l1' | 'l2' | 'verify';

export interface Verified {
  payload: JWTPayload;
  level: Level;
  /** The protected header when the library verified just now (cache hits decode it on demand). */
  header?: JoseHeader;
}

/** What `authenticate` found: an identity, an anonymous pass (public, optional, none), or the refusal. */
export type AuthOutcome =
  | { ok: true; anonymous: false; payload: JWTPayload; header: () => JoseHeader; issuer: string; timing: string }
  | { ok: true; anonymous: true; payload: undefined; header: undefined; issuer: undefined; timing: undefined }
  | { ok: false; response: Response };

/** A verified, non-anonymous outcome (what the identity hooks look at). */
export type Identity = Extract<AuthOutcome, { ok: true; anonymous: false }>;

/** The anonymous pass (public path, auth "none", or "optional" without a token). */
export const ANONYMOUS: AuthOutcome = {
  ok: true,
  anonymous: true,
  payload: undefined,
  header: undefined,
  issuer: undefined,
  timing: undefined,
};

/**
 * A stage's own answer (an endpoint, a preflight, a 404): it stops the chain like a refusal.
 *
 * @example
 * return cx.url.pathname === path ? answered(serve(cx.request.method)) : undefined;
 */
export function answered(response: Response): AuthOutcome {
  return { ok: false, response };
}

/**
 * One request's state in the chain.
 *
 * @example
 * const cx = new RequestContext(request, requestTarget(request.url), ctx);
 */
export class RequestContext {
  /** The request path's readings, from the path stage (stages/path/). */
  path: Extract<CanonicalPath, { ok: true }> | undefined = undefined;
  /** The matched rules' names for the rejection log (`rules[0],rules[2]`); undefined: none matched. */
  rule: string | undefined = undefined;
  /** The rules that apply, from the method-and-rules stage. */
  matched: Matched | undefined = undefined;
  /** The credential the extraction stage found. */
  token = '';
  /** What the verify stage already read of the token (split, header, payload), for the log of a failure. */
  opened: OpenedToken | undefined = undefined;
  /** The Authorization scheme that carried the token: `dpop` (RFC 9449 §7.1), else a bearer token. */
  scheme: 'bearer' | 'dpop' = 'bearer';
  /**
   * What the sender-constraint stages proved for this request: the DPoP key's and the client certificate's thumbprints.
   */
  proven: { jkt?: string; x5t?: string } = {};
  /** A fresh DPoP nonce for the answer's `DPoP-Nonce` header, when the proof used the previous one (dpop-stage.ts). */
  dpopNonce: string | undefined = undefined;
  /** performance.now() when verification started (Server-Timing). */
  started = 0;
  /**
   * The client's header names (Headers.keys()), read once by the route stage: the forward's copy
   * holds the same names, so its scans reuse them instead of a second walk of the runtime's list.
   */
  headerNames: readonly string[] | undefined = undefined;

  constructor(
    readonly request: Request,
    readonly url: RequestTarget,
    readonly ctx: WaitUntil,
  ) {}
}
