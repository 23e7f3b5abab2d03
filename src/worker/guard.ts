// The guard is a short chain of stages; each lives in its own module with its own
// config section and returns "continue" (undefined) or the answer that stops the chain:
//
//   admin      admin.ts          the counters endpoint, before anything else
//              revocation-admin  the revocation endpoint (revocation.path), likewise
//   cors       cors.ts           a preflight answered; CORS headers on every answer
//              (admin, cors and rules are registry features, features/registry.ts: given only when configured)
//   path       path.ts           one canonical path (400 when it cannot be read one way);
//   resource   resource-stage.ts the RFC 9728 metadata without a token; resource_metadata on every challenge
//              reserved-paths    another spelling of admin.path / revocation.path / the metadata: 404, never forwarded
//   keys       origin-assertion  the assertion key set, served without a token
//   route      route.ts          method override refused, public paths, the matching rules
//   credential credentials.ts    the token from the configured sources
//   verify     verify-tiers.ts   L1 -> the library; L2 (KV) between them from kvTiers (l2-tier.ts)
//              introspection-stage  an opaque token introspected instead (RFC 7662), from the introspection feature
//   checks     token-checks.ts   the issuer's and the rules' claims
//   after      after-verify.ts   configured stages on the identity (sender constraint, revocation)
//   forward    forward.ts        identity headers, assertion, the configured origin only
//   observe    observe.ts        counters, rejection log, analytics, Server-Timing
//
// One RequestContext (context.ts) carries what a stage learned to the ones after it.
// Every fault fails closed: handle answers 500 (fault.ts).

import type { GuardParts } from './build.js';
import { afterVerify } from './after-verify.js';
import { RequestContext, type AuthOutcome, type Verified, type WaitUntil } from './context.js';
import { credentialStage } from './credentials.js';
import { internalFault } from './fault.js';
import { Forwarder } from './forward.js';
import { IssuerIndex } from './issuer-index.js';
import { Observer } from './observe.js';
import { canonicalPath, type CanonicalPath } from './path.js';
import { requestTarget, type RequestTarget } from './request-url.js';
import { routeStage } from './route.js';
import { checkVerified, verifyFailed, type CheckScope } from './token-checks.js';
import { VerifyTiers } from './verify-tiers.js';

export type { AuthOutcome, WaitUntil } from './context.js';

export class Guard {
  readonly parts: GuardParts;
  readonly #observe: Observer;
  /** The verify stage: L1 -> L2 (KV) -> the library. */
  readonly tiers: VerifyTiers;
  readonly #forwarder: Forwarder;
  readonly #checks: CheckScope;

  constructor(parts: GuardParts) {
    this.parts = parts;
    const issuers = new IssuerIndex(parts.config.issuers);
    this.#observe = new Observer(parts, issuers);
    // With cache.verify, the kvTiers feature's stage (L1 -> L2 -> library; l2-tier.ts).
    this.tiers = parts.verifyTiers?.(parts, issuers) ?? new VerifyTiers(parts, issuers);
    this.#forwarder = new Forwarder(parts, this.#observe);
    this.#checks = { config: parts.config, observe: this.#observe, issuers, log: parts.log, checkRules: parts.rules?.checkRules, dpop: parts.dpopAnswers, now: parts.now,
      introspection: parts.introspection };
  }

  async handle(request: Request, ctx: WaitUntil): Promise<Response> {
    let res: Response;
    try {
      res = await this.#route(request, ctx);
    } catch (e) {
      // A bug, a runtime fault or a server-side verify failure: 500, one log line, nothing for the client.
      res = internalFault(e, this.parts);
    } finally {
      this.parts.counters.maybeLog(this.parts.now());
    }
    return res;
  }

  // Not async: one promise layer fewer per request; handle's try catches a throw here too.
  #route(request: Request, ctx: WaitUntil): Promise<Response> {
    const { config, counters } = this.parts;
    // pathname and search straight from request.url (no URL object: see requestTarget).
    const url = requestTarget(request.url);
    if (config.admin !== undefined && url.pathname === config.admin.path) return this.parts.admin!(request);
    if (config.revocation !== undefined && url.pathname === config.revocation.path) return this.parts.revocationAdmin!(request);
    // RFC 9728 §3.1: the metadata without a token, before CORS (its own answer lets any origin read it).
    const resource = this.parts.resource;
    if (resource !== undefined && url.pathname === resource.path) {
      return Promise.resolve(resource.serve(request.method));
    }
    counters.inc('requests');
    const cors = this.parts.cors;
    if (cors === undefined) return this.#authorised(new RequestContext(request, url, ctx));
    return cors.around(request, this.#preflight, () => this.#authorised(new RequestContext(request, url, ctx)));
  }

  /** A preflight the CORS stage answered: counted and reported. */
  readonly #preflight = (): void => {
    this.parts.counters.inc('preflight');
    this.#observe.point('preflight');
  };

  async #authorised(cx: RequestContext): Promise<Response> {
    const { config, assertion } = this.parts;
    // One canonical path decides everything below; spellings that cannot be read one way are refused.
    const path = canonicalPath(cx.url.pathname, config.paths.escapedSlashes);
    if (!path.ok) return this.#observe.refusePath();
    const reserved = this.parts.reserved?.(path);
    if (reserved !== undefined) return reserved;
    // The assertion key set path is answered before any token check: origins fetch that key set without one.
    const keys = assertion?.keySet(cx.url);
    if (keys !== undefined) return keys;
    const o = this.decide(cx, path);
    const outcome = o instanceof Promise ? await o : o;
    if (!outcome.ok) return outcome.response;
    return this.#forwarder.forward(cx, outcome, config.paths.forward === 'canonical' ? path.path : cx.url.pathname);
  }

  /** route -> credential -> verify -> checks -> after, without a promise when nothing waited (see VerifyTiers). */
  decide(cx: RequestContext, path: CanonicalPath): AuthOutcome | Promise<AuthOutcome> {
    if (!path.ok) return { ok: false, response: this.#observe.refusePath() };
    const config = this.parts.config;
    const stop = routeStage(cx, path, config, this.#observe, this.parts.rules?.routeRules) ?? credentialStage(cx, config, this.#observe, this.parts.tokens.findToken, this.parts.dpopAnswers);
    if (stop !== undefined) return stop;
    cx.started = performance.now();
    let v: Verified | Promise<Verified>;
    try {
      v = this.tiers.verify(cx.token, cx.ctx, cx);
    } catch (e) {
      return verifyFailed(cx, e, this.#checks);
    }
    // A verify that did not wait (an L1 hit, HS*/EdDSA in Wasm) goes on without a promise.
    const after = this.parts.afterVerify;
    if (v instanceof Promise) {
      return v.then(
        (verified) => afterVerify(cx, checkVerified(cx, verified, this.#checks), after, this.#observe),
        (e: unknown) => verifyFailed(cx, e, this.#checks),
      );
    }
    return afterVerify(cx, checkVerified(cx, v, this.#checks), after, this.#observe);
  }

  /** The guard's counters (the admin endpoint's figures). */
  get counters(): GuardParts['counters'] {
    return this.parts.counters;
  }

  /** Entries in this isolate's L1 (bounded by cache.l1Max; the load test watches it). */
  get l1Size(): number {
    return this.tiers.l1Size;
  }

  /**
   * Decide on a request without forwarding it: the identity, an anonymous pass
   * (public path, auth "none", or "optional" without a token), or the exact
   * refusal the guard would send (a 400 for a path src/worker/path.ts refuses, a 500 for a fault).
   */
  async authenticate(
    request: Request,
    ctx: WaitUntil,
    url: RequestTarget = requestTarget(request.url),
    path: CanonicalPath = canonicalPath(url.pathname, this.parts.config.paths.escapedSlashes),
  ): Promise<AuthOutcome> {
    try {
      return await this.decide(new RequestContext(request, url, ctx), path);
    } catch (e) {
      return { ok: false, response: internalFault(e, this.parts) };
    }
  }

  /** L1 (this isolate) -> L2 (KV, for the configured algorithms) -> full verify by the library. */
  async verify(token: string, ctx: WaitUntil): Promise<Verified> {
    return this.tiers.verify(token, ctx, { opened: undefined });
  }
}
