// One request through the guard: strip identity headers, let public paths
// through, find the token, verify it (L1 -> L2 -> the library), apply the
// rules, then forward with the identity headers. Every fault fails closed.

import { VerifyCache } from '../cache.js';
import type { JWTPayload } from '../claims.js';
import { decodeUnverified } from '../decode.js';
import { keysUnavailable } from '../bearer/challenge.js';
import { findToken } from '../bearer/token.js';
import { isJwtError } from '../errors.js';
import { buildGuard, type GuardDeps, type GuardEnv, type GuardParts } from './build.js';
import type { CounterName } from './counters.js';
import { ECHO_ORIGIN } from './config.js';
import { echo } from './echo.js';
import { isPublic, pathForms, rulesFor, stripIdentity } from './request.js';
import * as answer from './responses.js';
import { checkRules } from './rules.js';

const MAX_FORWARDED_VALUE = 4096;
const PRINTABLE = /^[\x20-\x7e]*$/;

type Level = 'l1' | 'l2' | 'verify';

interface Verified {
  payload: JWTPayload;
  level: Level;
}

export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

export class Guard {
  readonly parts: GuardParts;
  readonly #l1: VerifyCache<JWTPayload> | undefined;
  /** Per issuer, the algorithms whose verifications go to KV. */
  readonly #l2Algs = new Map<string, Set<string>>();

  constructor(parts: GuardParts) {
    this.parts = parts;
    const l2 = parts.config.cache.verifyAlgorithms;
    for (const is of parts.config.issuers) this.#l2Algs.set(is.issuer, new Set(is.algorithms.filter((a) => l2.has(a))));
    const max = parts.config.cache.l1Max;
    this.#l1 = max > 0 ? new VerifyCache<JWTPayload>(max, parts.config.cache.verifyTtl) : undefined;
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
    try {
      return await this.#route(request, ctx);
    } catch (e) {
      // A bug or runtime fault: refuse the request, say nothing to the client.
      counters.inc('internal_error');
      this.parts.log(JSON.stringify({ edgejwt: 'error', message: e instanceof Error ? e.name : 'unknown fault' }));
      return answer.serverError();
    } finally {
      counters.maybeLog(this.parts.now());
    }
  }

  async #route(request: Request, ctx: WaitUntil): Promise<Response> {
    const { config, counters } = this.parts;
    const url = new URL(request.url);
    if (config.admin !== undefined && url.pathname === config.admin.path) return this.#admin(request);
    counters.inc('requests');

    const headers = new Headers(request.headers);
    stripIdentity(headers, config);
    const forms = pathForms(url.pathname);
    if (isPublic(forms, config)) {
      counters.inc('public');
      return this.#forward(request, url, headers);
    }

    const found = findToken(request.headers, config.tokenSources);
    if (found.kind === 'none') {
      counters.inc('missing_token');
      return answer.missingToken(config.realm);
    }
    if (found.kind === 'malformed') {
      counters.inc('malformed_token');
      return answer.malformedToken(config.realm);
    }
    const token = found.token;

    const started = performance.now();
    let verified: Verified;
    try {
      verified = await this.verify(token, ctx);
    } catch (e) {
      const timing = serverTiming(performance.now() - started, 'fail');
      if (!isJwtError(e)) throw e;
      if (keysUnavailable(e.code)) {
        counters.inc('unavailable');
        this.parts.log(JSON.stringify({ edgejwt: 'unavailable', code: e.code }));
        return withTiming(answer.keysUnavailable(config.jwksCooldownMs), timing);
      }
      counters.inc(`rejected:${e.code}` as CounterName);
      return withTiming(answer.invalidToken(config.realm, answer.publicDescription(e.code)), timing);
    }
    const timing = serverTiming(performance.now() - started, verified.level);

    const miss = checkRules(rulesFor(forms, config), verified.payload);
    if (miss !== undefined) {
      counters.inc('forbidden');
      return withTiming(answer.insufficientScope(config.realm, miss.scopes, miss.description), timing);
    }

    for (const [claim, header] of config.forwardClaims) {
      const value = headerValue(verified.payload[claim]);
      if (value === null) {
        // A claim that cannot travel in a header (control characters, non-ASCII, huge): refuse, never truncate.
        counters.inc('rejected:claim_not_forwardable');
        return withTiming(answer.invalidToken(config.realm, answer.publicDescription(undefined)), timing);
      }
      if (value !== undefined) headers.set(header, value);
    }
    counters.inc('accepted');
    return withTiming(await this.#forward(request, url, headers), timing);
  }

  /** L1 (this isolate) -> L2 (KV, for the configured algorithms) -> full verify by the library. */
  async verify(token: string, ctx: WaitUntil): Promise<Verified> {
    const { verifier, l2, counters, config, now } = this.parts;
    const nowMs = now();
    // The L1 checks the time window itself on every hit.
    const hit = this.#l1?.get(token, nowMs);
    if (hit !== undefined) {
      counters.inc('l1_hit');
      return { payload: hit, level: 'l1' };
    }

    let useL2 = false;
    if (l2 !== undefined) {
      // iss and alg only decide whether KV is worth asking (so made-up issuers cost no
      // KV reads); nothing unverified is trusted.
      const { header, payload } = decodeUnverified(token);
      useL2 = typeof payload.iss === 'string' && this.#l2Algs.get(payload.iss)?.has(header.alg) === true;
    }
    if (useL2) {
      const payload = await l2!.get(token);
      const w = payload === undefined ? undefined : timeWindow(payload, config.clockTolerance);
      const t = now();
      if (payload !== undefined && w !== undefined && t >= w.from && t < w.until) {
        counters.inc('l2_hit');
        this.#remember(token, payload, nowMs);
        return { payload, level: 'l2' };
      }
    }

    let payload: JWTPayload;
    try {
      payload = (await verifier.verify(token)).payload;
    } finally {
      const writes = this.parts.jwksStore?.drain();
      if (writes !== undefined) ctx.waitUntil(writes);
    }
    counters.inc('verified');
    this.#remember(token, payload, nowMs);
    if (useL2) {
      const write = l2!.put(token, payload, now() / 1000);
      if (write !== undefined) ctx.waitUntil(write);
    }
    return { payload, level: 'verify' };
  }

  #remember(token: string, payload: JWTPayload, nowMs: number): void {
    const w = timeWindow(payload, this.parts.config.clockTolerance);
    if (w !== undefined) this.#l1?.set(token, payload, nowMs, w.from, w.until);
  }

  async #forward(request: Request, url: URL, headers: Headers): Promise<Response> {
    const origin = this.parts.config.origin;
    if (origin === ECHO_ORIGIN) return echo(request, url, headers);
    const target = origin === undefined ? url : new URL(url.pathname + url.search, origin);
    const outgoing = new Request(target, { method: request.method, headers, body: request.body, redirect: 'manual' });
    let res: Response;
    try {
      res = await this.parts.fetch(outgoing);
    } catch {
      this.parts.counters.inc('origin_error');
      return answer.badGateway();
    }
    // Responses from fetch have immutable headers; copy so Server-Timing can be added.
    return new Response(res.body, res);
  }

  async #admin(request: Request): Promise<Response> {
    const given = request.headers.get('x-guard-admin') ?? '';
    const want = this.parts.adminSecret ?? '';
    const ok = want.length > 0 && (await sameSecret(given, want));
    if (!ok) return new Response(JSON.stringify({ error: 'unauthorized' }), { status: 401, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
    return new Response(JSON.stringify({ since: new Date(this.parts.counters.startedAt).toISOString(), counters: this.parts.counters.snapshot() }), {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  }
}

/** Build a guard from the environment (throws ConfigError on a bad configuration). */
export async function createGuard(env: GuardEnv, deps?: GuardDeps): Promise<Guard> {
  return new Guard(await buildGuard(env, deps));
}

/**
 * Clock ms in which a verified payload still holds (the library's exp/nbf rules
 * with the configured tolerance); undefined without a numeric exp, which the
 * guard never caches.
 */
function timeWindow(payload: JWTPayload, tolerance: number): { from: number; until: number } | undefined {
  const { exp, nbf } = payload;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
  if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf))) return undefined;
  return { from: nbf === undefined ? -Infinity : (nbf - tolerance) * 1000, until: (exp + tolerance) * 1000 };
}

/** undefined: claim absent (no header); null: present but cannot be forwarded. */
function headerValue(v: unknown): string | undefined | null {
  if (v === undefined || v === null) return undefined;
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'number' || typeof v === 'boolean') s = String(v);
  else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) s = v.join(' ');
  else s = JSON.stringify(v);
  return s.length <= MAX_FORWARDED_VALUE && PRINTABLE.test(s) ? s : null;
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
