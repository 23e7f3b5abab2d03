// One request through the guard: answer a CORS preflight, canonicalise the path
// (400 when it cannot be read one way), pick the rule from every reading of it,
// find the token, verify it (L1 -> L2 -> the library), apply the issuer's and the
// rule's checks, strip identity headers, then forward with them to the configured
// origin only. Every fault fails closed.

import { keysUnavailable, serverFault } from '../bearer/challenge.js';
import { dropToken, findToken } from '../bearer/token.js';
import { VerifyCache } from '../cache.js';
import { ownClaim, timeWindow, type JWTPayload } from '../claims.js';
import { decodeUnverified } from '../decode.js';
import { isJwtError } from '../errors.js';
import { deepFreeze } from '../freeze.js';
import { parseHeader, type JoseHeader } from '../header.js';
import type { OpenedToken, VerifyResult } from '../verify-path.js';
import type { KeyEntry } from '../keys/entry.js';
import { encode } from '../b64.js';
import { buildGuard, type GuardDeps, type GuardEnv, type GuardParts } from './build.js';
import type { CounterName } from './counters.js';
import { ECHO_ORIGIN, type IssuerConfig } from './config.js';
import { allowedOrigin, isPreflight, preflightResponse, withCors } from './cors.js';
import { echo } from './echo.js';
import { internalFault } from './fault.js';
import { canonicalPath, decisionReadings, type CanonicalPath } from './path.js';
import type { Rejection, RejectionCode } from './rejection-log.js';
import { identityHeaders, isPublic, stripIdentity, type IdentityHeaders } from './request.js';
import * as answer from './responses.js';
import { claimHeaderValue } from './claim-header.js';
import { hasMethodOverride, METHOD_OVERRIDE_REFUSED } from './method-override.js';
import { checkRules, issuerClaimMiss, matchRules, type Matched } from './rules.js';
import { serviceRequest } from './service-origin.js';
import { requestTarget, type RequestTarget } from './request-url.js';
import { WriteAdmission } from './l2-admission.js';
import { dropHopByHop } from './hop-by-hop.js';
import { refuseDeepPayload } from './payload-depth.js';

/** The claim behind a time failure, for the rejection log. */
const TIME_CLAIM: Partial<Record<string, string>> = { ERR_JWT_EXPIRED: 'exp', ERR_JWT_NOT_YET_VALID: 'nbf' };
const encoder = new TextEncoder();

type Level = 'l1' | 'l2' | 'verify';

interface Verified {
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

const ANONYMOUS: AuthOutcome = { ok: true, anonymous: true, payload: undefined, header: undefined, issuer: undefined, timing: undefined };

export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

export class Guard {
  readonly parts: GuardParts;
  /** Each entry tied to the key that proved it (a refresh that drops the key ends it). */
  readonly #l1: VerifyCache<JWTPayload, KeyEntry> | undefined;
  /** Per issuer, the algorithms whose verifications go to KV. */
  readonly #l2Algs = new Map<string, Set<string>>();
  /** Which of those verifications are written to KV, and how many a minute. */
  readonly #admission: WriteAdmission | undefined;
  /** The headers the guard sets itself, stripped from every request in any spelling. */
  readonly #identity: IdentityHeaders;
  /** The configured origin URL up to its path (scheme, host, port), or undefined (echo, service, same URL). */
  readonly #originPrefix: string | undefined;

  constructor(parts: GuardParts) {
    this.parts = parts;
    const l2 = parts.config.cache.verifyAlgorithms;
    for (const is of parts.config.issuers) for (const name of is.issuer) this.#l2Algs.set(name, new Set(is.algorithms.filter((a) => l2.has(a))));
    const max = parts.config.cache.l1Max;
    this.#l1 = max > 0 ? new VerifyCache<JWTPayload, KeyEntry>(max, parts.config.cache.verifyTtl) : undefined;
    const c = parts.config.cache;
    this.#admission = parts.l2 === undefined ? undefined : new WriteAdmission({ mode: c.verifyAdmission, perMinute: c.verifyWritesPerMinute, capacity: Math.max(1000, max) });
    this.#identity = identityHeaders(parts.config);
    const origin = parts.config.origin;
    this.#originPrefix = typeof origin === 'string' && origin !== ECHO_ORIGIN ? originPrefix(origin) : undefined;
  }

  /** Entries in this isolate's L1 (bounded by cache.l1Max; the load test watches it). */
  get l1Size(): number {
    return this.#l1?.size ?? 0;
  }

  get counters(): GuardParts['counters'] {
    return this.parts.counters;
  }

  async handle(request: Request, ctx: WaitUntil): Promise<Response> {
    const { counters } = this.parts;
    let res: Response;
    try {
      res = await this.#route(request, ctx);
    } catch (e) {
      // A bug, a runtime fault or a server-side verify failure: 500, one log line, nothing for the client.
      res = internalFault(e, this.parts);
    } finally {
      counters.maybeLog(this.parts.now());
    }
    return res;
  }

  // Not async: one promise layer fewer per request; handle's try catches a throw here too.
  #route(request: Request, ctx: WaitUntil): Promise<Response> {
    const { config, counters } = this.parts;
    // pathname and search straight from request.url (no URL object: see requestTarget).
    const url = requestTarget(request.url);
    if (config.admin !== undefined && url.pathname === config.admin.path) return this.#admin(request);
    counters.inc('requests');

    const cors = config.cors;
    const corsOrigin = allowedOrigin(cors, request);
    // A preflight never carries credentials (Fetch standard): answer it here for allowed origins.
    if (cors !== undefined && corsOrigin !== undefined && isPreflight(request)) {
      counters.inc('preflight');
      this.#point('preflight');
      return Promise.resolve(preflightResponse(cors, corsOrigin));
    }
    const res = this.#authorised(request, url, ctx);
    return cors !== undefined ? res.then((r) => withCors(r, cors, corsOrigin)) : res;
  }

  async #authorised(request: Request, url: RequestTarget, ctx: WaitUntil): Promise<Response> {
    const { config, counters } = this.parts;
    // One canonical path decides everything below; spellings that cannot be read one way are refused.
    const path = canonicalPath(url.pathname, config.paths.escapedSlashes);
    if (!path.ok) return this.#refusePath();
    const forwardPath = config.paths.forward === 'canonical' ? path.path : url.pathname;
    // The assertion key set path is answered before any token check: origins fetch that key set without one.
    const keys = this.parts.assertion?.keySet(url);
    if (keys !== undefined) return keys;
    const o = this.#authenticate(request, ctx, url, path);
    const outcome = o instanceof Promise ? await o : o;
    if (!outcome.ok) return outcome.response;

    let claims: [header: string, value: string][] | undefined;
    if (!outcome.anonymous) {
      for (const [claim, header] of config.forwardClaims) {
        const value = claimHeaderValue(ownClaim(outcome.payload, claim));
        if (value === null) {
          // A claim that cannot travel in a header unambiguously (claim-header.ts): refuse, never trim or truncate.
          counters.inc('rejected:claim_not_forwardable');
          this.#reject(request, url, { code: 'claim_not_forwardable', status: 401, claim, iss: outcome.issuer });
          return withTiming(answer.invalidToken(config.realm, answer.publicDescription(undefined)), outcome.timing);
        }
        if (value !== undefined) (claims ??= []).push([header, value]);
      }
    }
    // The request for the origin, built with the client's headers in one copy; they are edited in place below.
    const out = this.#outgoing(request, url, forwardPath);
    if (out === undefined) {
      // The runtime accepted the request but will not send it on (a GET or HEAD with a body, ...).
      counters.inc(outcome.anonymous ? 'public' : 'accepted');
      this.#point(outcome.anonymous ? 'anonymous' : 'accepted', outcome.issuer);
      return this.#refuseForward();
    }
    const headers = out.headers;
    dropHopByHop(headers); // RFC 9110 §7.6.1, before the guard's own headers (hop-by-hop.ts)
    // Every spelling of the guard's own headers (forwardClaims, forwardPayload), `X_Auth_Sub` too.
    stripIdentity(headers, this.#identity);
    // A client's own copy of the assertion header, in any spelling.
    this.parts.assertion?.dropClientCopies(headers);
    if (!config.forwardToken) dropToken(headers, config.tokenSources);
    if (outcome.anonymous) {
      counters.inc('public');
      this.#point('anonymous');
      return this.#send(request, out);
    }
    if (claims !== undefined) for (const [header, value] of claims) headers.set(header, value);
    // Envoy's forward_payload_header: base64url of the verified payload's JSON.
    if (config.forwardPayload !== undefined) headers.set(config.forwardPayload, encode(encoder.encode(JSON.stringify(outcome.payload))));
    // A service binding has no URL of its own: the assertion's default audience is then the guard's origin.
    const assertion = this.parts.assertion;
    if (assertion !== undefined) await assertion.stamp(headers, outcome.payload, new URL(url.href), typeof config.origin === 'object' ? undefined : config.origin);
    counters.inc('accepted');
    this.#point('accepted', outcome.issuer);
    return withTiming(await this.#send(request, out), outcome.timing);
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
      return await this.#authenticate(request, ctx, url, path);
    } catch (e) {
      return { ok: false, response: internalFault(e, this.parts) };
    }
  }

  /** authenticate, without a promise when nothing waited (see #verify). */
  #authenticate(request: Request, ctx: WaitUntil, url: RequestTarget, path: CanonicalPath): AuthOutcome | Promise<AuthOutcome> {
    const { config, counters } = this.parts;
    if (!path.ok) return { ok: false, response: this.#refusePath() };
    // Before any rule or public path: the method decided on must be the one the origin runs.
    if (hasMethodOverride(request.headers, url.search)) {
      counters.inc('rejected:method_override');
      return this.#refuse(request, url, undefined, answer.badRequest(METHOD_OVERRIDE_REFUSED), { code: 'method_override', status: 400 });
    }
    // Public only when every reading is; each reading's first matching rule applies.
    const readings = decisionReadings(path, url.pathname, config.paths.forward);
    if (isPublic(readings, config)) return ANONYMOUS;
    const matched = matchRules(readings, request.method, config);
    if (matched.auth === 'none') return ANONYMOUS;
    const rule = matched.names.length === 0 ? undefined : matched.names.join(',');

    const found = findToken(request.headers, config.tokenSources);
    if (found.kind === 'none') {
      // Envoy's allow_missing: no token at all passes anonymously; a bad one never does.
      if (matched.auth === 'optional') return ANONYMOUS;
      counters.inc('missing_token');
      return this.#refuse(request, url, rule, answer.missingToken(config.realm), { code: 'missing_token', status: 401 });
    }
    if (found.kind === 'malformed') {
      counters.inc('malformed_token');
      return this.#refuse(request, url, rule, answer.malformedToken(config.realm), { code: 'malformed_token', status: 400 });
    }
    const token = found.token;

    const started = performance.now();
    const opening: Opening = { opened: undefined };
    let v: Verified | Promise<Verified>;
    try {
      v = this.#verify(token, ctx, opening);
    } catch (e) {
      return this.#verifyFailed(e, request, url, rule, token, opening, started);
    }
    // A verify that did not wait (an L1 hit, HS*/EdDSA in Wasm) goes on without a promise.
    if (v instanceof Promise) {
      return v.then(
        (verified) => this.#afterVerify(verified, request, url, rule, matched, token, started),
        (e: unknown) => this.#verifyFailed(e, request, url, rule, token, opening, started),
      );
    }
    return this.#afterVerify(v, request, url, rule, matched, token, started);
  }

  /** The issuer's and the rules' checks on a verified token: the identity, or the refusal. */
  #afterVerify(verified: Verified, request: Request, url: RequestTarget, rule: string | undefined, matched: Matched, token: string, started: number): AuthOutcome {
    const { config, counters } = this.parts;
    const timing = serverTiming(performance.now() - started, verified.level);
    const iss = ownClaim(verified.payload, 'iss') as string;
    const issuer = this.#issuers.get(iss)!;

    const claim = issuerClaimMiss(issuer, verified.payload);
    if (claim !== undefined) {
      counters.inc('rejected:claim_mismatch');
      return this.#refuse(request, url, rule, withTiming(answer.invalidToken(config.realm, answer.publicDescription(undefined)), timing), { code: 'claim_mismatch', status: 401, claim, ...verifiedSeen(token, verified) });
    }
    const miss = checkRules(matched.rules, verified.payload, issuer);
    if (miss !== undefined) {
      counters.inc(miss.status === 403 ? 'forbidden' : (`rejected:${miss.code}` as CounterName));
      const res = miss.status === 403 ? answer.insufficientScope(config.realm, miss.scopes, miss.description) : answer.invalidToken(config.realm, miss.description);
      return this.#refuse(request, url, rule, withTiming(res, timing), { code: miss.code, status: miss.status, claim: miss.claim, ...verifiedSeen(token, verified) });
    }
    const header = verified.header;
    return { ok: true, anonymous: false, payload: verified.payload, header: () => header ?? headerOf(token), issuer: iss, timing };
  }

  /** The refusal of a token the verify threw on (a fault that is not a JwtError is thrown on). */
  #verifyFailed(e: unknown, request: Request, url: RequestTarget, rule: string | undefined, token: string, opening: Opening, started: number): AuthOutcome {
    const { config, counters } = this.parts;
    const timing = serverTiming(performance.now() - started, 'fail');
    // Not the token's fault (a bug, the Wasm core, the options): handle/authenticate answer 500.
    if (!isJwtError(e) || serverFault(e.code)) throw e;
    // What the verify already read, when it got that far: the payload is never parsed twice.
    // A payload that did not parse is not tried again (peek would find nothing in it either).
    const seen =
      opening.opened !== undefined ? { iss: opening.opened.iss, kid: opening.opened.kid, alg: opening.opened.alg } : e.code === 'ERR_JWT_PAYLOAD_INVALID' ? {} : peek(token);
    if (keysUnavailable(e.code)) {
      counters.inc('unavailable');
      this.parts.log(JSON.stringify({ edgejwt: 'unavailable', code: e.code }));
      return this.#refuse(request, url, rule, withTiming(answer.keysUnavailable(config.jwksCooldownMs), timing), { code: e.code, status: 503, ...seen });
    }
    // A token from an issuer nobody configured gets its own code, not "no matching key".
    const wrongIssuer = typeof seen.iss === 'string' && !this.#issuers.has(seen.iss);
    counters.inc(wrongIssuer ? 'rejected:wrong_issuer' : (`rejected:${e.code}` as CounterName));
    const code: RejectionCode = wrongIssuer ? 'wrong_issuer' : e.code;
    return this.#refuse(request, url, rule, withTiming(answer.invalidToken(config.realm, answer.publicDescription(e.code)), timing), { code, status: 401, claim: e.claim ?? TIME_CLAIM[e.code], ...seen });
  }

  /** Log the refusal (rate-limited, no token) and hand back its response. */
  #refuse(request: Request, url: RequestTarget, rule: string | undefined, response: Response, r: Omit<Rejection, 'method' | 'path' | 'rule'>): AuthOutcome {
    this.#reject(request, url, { ...r, rule });
    return { ok: false, response };
  }

  /** Issuer entry by every `iss` spelling it accepts. */
  get #issuers(): Map<string, IssuerConfig> {
    if (this.#byIss === undefined) {
      this.#byIss = new Map();
      for (const is of this.parts.config.issuers) for (const name of is.issuer) this.#byIss.set(name, is);
    }
    return this.#byIss;
  }

  #byIss: Map<string, IssuerConfig> | undefined;

  #reject(request: Request, url: RequestTarget, r: Omit<Rejection, 'method' | 'path'>): void {
    this.parts.rejections.write({ ...r, method: request.method, path: url.pathname });
    // Analytics gets configured issuers only: an unverified iss would let anyone write strings there.
    this.#point(r.code, typeof r.iss === 'string' && this.#issuers.has(r.iss) ? r.iss : undefined);
  }

  /** 400 for a path that cannot be read one way; counted, no log line (an attacker could flood the log). */
  #refusePath(): Response {
    this.parts.counters.inc('path_refused');
    this.#point('path_refused');
    return answer.badRequest('The request path is not accepted');
  }

  /** One Analytics Engine data point per outcome, when an ANALYTICS binding is set. */
  #point(outcome: string, iss?: string): void {
    const a = this.parts.analytics;
    if (a === undefined) return;
    try {
      a.writeDataPoint({ indexes: [outcome], blobs: [outcome, iss === undefined ? '' : iss.slice(0, 200)], doubles: [1] });
    } catch {
      this.parts.counters.inc('analytics_error');
    }
  }

  /** L1 (this isolate) -> L2 (KV, for the configured algorithms) -> full verify by the library. */
  async verify(token: string, ctx: WaitUntil): Promise<Verified> {
    return this.#verify(token, ctx, { opened: undefined });
  }

  /**
   * verify, without a promise when nothing waits (an L1 hit; HS* or EdDSA without L2):
   * then a failure is thrown rather than a rejected promise.
   */
  #verify(token: string, ctx: WaitUntil, opening: Opening): Verified | Promise<Verified> {
    const { verifier, l2, counters, now } = this.parts;
    const nowMs = now();
    // The L1 checks the time window itself on every hit.
    const hit = this.#l1?.get(token, nowMs);
    if (hit !== undefined) {
      counters.inc('l1_hit');
      // A token verified once and seen again: now worth a KV entry (seen-twice admission).
      if (this.#admission?.waiting(token) === true) this.#writeL2(token, hit, ctx, this.#l1!.proofOf(token));
      return { payload: hit, level: 'l1' };
    }

    // The verify's first steps (split, header, the one parse of the payload); verifyOpened
    // carries on from them. A token that fails here throws what verify would.
    const opened = verifier.open(token);
    opening.opened = opened;
    if (l2 !== undefined) {
      // iss and alg only decide whether KV is worth asking (so made-up issuers cost no
      // KV reads); nothing unverified is trusted.
      const iss = opened.iss;
      if (typeof iss === 'string' && this.#l2Algs.get(iss)?.has(opened.alg) === true) return this.#viaL2(token, ctx, opened, nowMs);
    }
    return this.#library(token, ctx, opened, nowMs, false);
  }

  /** An L2 hit within its window, or the library's verify (then written to KV as admission allows). */
  async #viaL2(token: string, ctx: WaitUntil, opened: OpenedToken, nowMs: number): Promise<Verified> {
    const { l2, counters, config, now } = this.parts;
    // Only under the key that would verify it now (key-tags.ts): none known, no KV read.
    const current = await this.parts.keyTags.current(opened.iss as string, opened.alg, opened.kid);
    if (current === undefined) return this.#library(token, ctx, opened, nowMs, true);
    const payload = await l2!.get(token, current.tag);
    const w = payload === undefined ? undefined : cacheWindow(payload, config.clockTolerance, this.#issuers);
    const t = now();
    if (payload !== undefined && w !== undefined && t >= w.from && t < w.until) {
      counters.inc('l2_hit');
      this.#remember(token, payload, nowMs, current.key);
      return { payload, level: 'l2' };
    }
    return this.#library(token, ctx, opened, nowMs, true);
  }

  /** The library's verify of an opened token; key-set writes for KV are handed to waitUntil once it settles. */
  #library(token: string, ctx: WaitUntil, opened: OpenedToken, nowMs: number, useL2: boolean): Verified | Promise<Verified> {
    let r: VerifyResult | Promise<VerifyResult>;
    try {
      r = this.parts.verifier.verifyOpened(opened);
    } catch (e) {
      this.#drainKeyWrites(ctx);
      throw e;
    }
    if (r instanceof Promise) {
      return r.then(
        (done) => {
          this.#drainKeyWrites(ctx);
          return this.#verified(token, done, nowMs, useL2, ctx, opened.proof);
        },
        (e: unknown) => {
          this.#drainKeyWrites(ctx);
          throw e;
        },
      );
    }
    this.#drainKeyWrites(ctx);
    return this.#verified(token, r, nowMs, useL2, ctx, opened.proof);
  }

  #drainKeyWrites(ctx: WaitUntil): void {
    const writes = this.parts.jwksStore?.drain();
    if (writes !== undefined) ctx.waitUntil(writes);
  }

  #verified(token: string, { payload, header }: VerifyResult, nowMs: number, useL2: boolean, ctx: WaitUntil, proof: KeyEntry | undefined): Verified {
    refuseDeepPayload(payload); // before any cache or JSON.stringify sees it (payload-depth.ts)
    this.parts.counters.inc('verified');
    this.#remember(token, payload, nowMs, proof);
    if (useL2) this.#writeL2(token, payload, ctx, proof);
    return { payload, level: 'verify', header };
  }

  /** Hand a verified payload to KV if the admission policy and the write budget say so. */
  #writeL2(token: string, payload: JWTPayload, ctx: WaitUntil, proof: KeyEntry | undefined): void {
    const { l2, counters, now } = this.parts;
    const tag = this.parts.keyTags.of(payload.iss as string, proof);
    if (tag === undefined) return;
    const t = now();
    const verdict = this.#admission!.decide(token, t);
    if (verdict === 'first-sighting') counters.inc('l2_write_deferred');
    else if (verdict === 'over-budget') counters.inc('l2_write_over_budget');
    else {
      const write = l2!.put(token, payload, t / 1000, tag);
      if (write !== undefined) ctx.waitUntil(write);
    }
  }

  #remember(token: string, payload: JWTPayload, nowMs: number, proof: KeyEntry | undefined): void {
    if (this.#l1 === undefined) return;
    const w = cacheWindow(payload, this.parts.config.clockTolerance, this.#issuers);
    // L1 hands the same payload to every later request with this token: frozen all the way down.
    if (w !== undefined) this.#l1.set(token, deepFreeze(payload), nowMs, w.from, w.until, proof);
  }

  /**
   * What goes to the origin: a Request to the configured origin URL (or the service
   * binding, or the request's own URL) whose headers are a copy of the client's, or
   * for the echo origin the copy alone. undefined: the runtime will not build it.
   */
  #outgoing(request: Request, url: RequestTarget, path: string): Outgoing | undefined {
    const origin = this.parts.config.origin;
    if (typeof origin === 'object') {
      const r = serviceRequest(request, url, path, request.headers);
      return r === undefined ? undefined : { request: r, headers: r.headers, echo: undefined };
    }
    // Path and query go after the origin's scheme, host and port: the request never picks
    // them (a path read as a URL reference could: `//host/x`). See forwardUrl.
    const prefix = this.#originPrefix;
    let target: string | URL;
    if (prefix !== undefined) target = forwardUrl(prefix, path, url.search);
    else {
      target = new URL(url.href);
      target.pathname = path;
      target.search = url.search;
      target.hash = '';
      if (origin === ECHO_ORIGIN) return { request: undefined, headers: new Headers(request.headers), echo: target };
    }
    try {
      const r = new Request(target, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual' });
      return { request: r, headers: r.headers, echo: undefined };
    } catch {
      return undefined;
    }
  }

  #send(request: Request, out: Outgoing): Promise<Response> {
    if (out.echo !== undefined) return Promise.resolve(echo(request, out.echo, out.headers));
    let sent: Promise<Response>;
    try {
      sent = typeof this.parts.config.origin === 'object' ? this.parts.service!.fetch(out.request!) : this.parts.fetch(out.request!);
    } catch {
      return Promise.resolve(this.#originError());
    }
    // Responses from fetch have immutable headers; copy so Server-Timing can be added.
    return sent.then(
      (res) => new Response(res.body, res),
      () => this.#originError(),
    );
  }

  #originError(): Response {
    this.parts.counters.inc('origin_error');
    return answer.badGateway();
  }

  #refuseForward(): Response {
    this.parts.counters.inc('request_refused');
    return answer.badRequest('The request cannot be forwarded');
  }

  async #admin(request: Request): Promise<Response> {
    const given = request.headers.get('x-guard-admin') ?? '';
    const want = this.parts.adminSecret ?? '';
    const ok = want.length > 0 && (await sameSecret(given, want));
    if (!ok) return new Response(JSON.stringify({ error: 'unauthorized' }), { status: 401, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
    return new Response(JSON.stringify({ since: this.parts.counters.sinceIso(), counters: this.parts.counters.snapshot() }), {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  }
}

/**
 * Build a guard from the environment (throws ConfigError on a bad configuration); `rawConfig` replaces GUARD_CONFIG.
 * `createGuard` is the usual way in; this is for code that keeps the Guard itself.
 *
 * @example
 * const guard = await startGuard(env, { log: (line) => console.log(line) });
 * const res = await guard.handle(request, ctx);
 */
export async function startGuard(env: GuardEnv, deps?: GuardDeps, rawConfig?: unknown): Promise<Guard> {
  return new Guard(await buildGuard(env, deps, rawConfig === undefined ? env.GUARD_CONFIG : rawConfig));
}

/**
 * The configured origin's URL without path, query or fragment (`https://o.example:8443`).
 *
 * @example
 * originPrefix('https://o.example/base?x#y'); // 'https://o.example'
 */
export function originPrefix(origin: string): string {
  const u = new URL(origin);
  u.pathname = '/';
  u.search = '';
  u.hash = '';
  // An http(s) URL (config.ts allows no other) with path `/` and no query or fragment ends in that `/`.
  return u.href.slice(0, -1);
}

/**
 * The URL an authorised request goes to: the origin's prefix, the forwarded path
 * and the request's query, as one string. The same URL as setting `pathname` and
 * `search` on a copy of the origin's URL (test/worker/guard-fast-paths.test.ts
 * checks it): `path` is a path the runtime's URL parser already serialised (or the
 * canonical form of one), so it starts with `/`, holds no `?` or `#`, and parses to
 * itself; `search` is `url.search` ('' or `?` and a serialised query).
 *
 * @example
 * forwardUrl('https://o.example', '/api/x', '?q=1'); // 'https://o.example/api/x?q=1'
 */
export function forwardUrl(prefix: string, path: string, search: string): string {
  return prefix + path + search;
}

/** The request for the origin (its headers still to be edited), or the echo origin's target and headers. */
interface Outgoing {
  request: Request | undefined;
  headers: Headers;
  echo: URL | undefined;
}

/** Where #verify leaves the token it opened, for the rejection log of a token that then fails. */
interface Opening {
  opened: OpenedToken | undefined;
}

/** A verified token's protected header (its parse is cached by src/header.ts; the payload is not read). */
function headerOf(token: string): JoseHeader {
  return parseHeader(token, token.indexOf('.')).header;
}

/** iss, kid and alg of a token that verified, for the rejection log of a refusal after the verify. */
function verifiedSeen(token: string, verified: Verified): { iss?: unknown; kid?: unknown; alg?: unknown } {
  const header = verified.header ?? headerOf(token);
  return { iss: verified.payload.iss, kid: header.kid, alg: header.alg };
}

/** The token's unverified iss, kid and alg, for the rejection log only (never trusted). */
function peek(token: string): { iss?: unknown; kid?: unknown; alg?: unknown } {
  try {
    const { header, payload } = decodeUnverified(token);
    return { iss: payload.iss, kid: header.kid, alg: header.alg };
  } catch {
    return {};
  }
}

/**
 * Clock ms in which a verified payload still holds (the library's window, claims.ts,
 * with the configured tolerance and its issuer's maxTokenAge); undefined without a
 * numeric exp, which the guard never caches, or with an nbf that is not a number.
 */
function cacheWindow(payload: JWTPayload, tolerance: number, issuers: Map<string, IssuerConfig>): { from: number; until: number } | undefined {
  const exp = ownClaim(payload, 'exp');
  const nbf = ownClaim(payload, 'nbf');
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
  if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf))) return undefined;
  return timeWindow(payload, { clockTolerance: tolerance, maxTokenAge: issuers.get(ownClaim(payload, 'iss') as string)?.maxTokenAge });
}

async function sameSecret(a: string, b: string): Promise<boolean> {
  // Digest first so the comparison is over equal lengths, then compare in constant time.
  const enc = new TextEncoder();
  const [da, db] = await Promise.all([crypto.subtle.digest('SHA-256', enc.encode(a)), crypto.subtle.digest('SHA-256', enc.encode(b))]);
  // workerd's SubtleCrypto extension (not in the DOM typings).
  return (crypto.subtle as SubtleCrypto & { timingSafeEqual(a: ArrayBuffer, b: ArrayBuffer): boolean }).timingSafeEqual(da, db);
}

function serverTiming(ms: number, level: Level | 'fail'): string {
  return `edgejwt;desc="${level}";dur=${ms.toFixed(3)}`;
}

function withTiming(res: Response, timing: string): Response {
  res.headers.append('server-timing', timing);
  return res;
}
