// The claim-check stage, after the verify stage: the issuer's and the matched rules'
// checks on a verified token (the identity, or a 401/403), and the refusal of a
// token that failed to verify (401, or 503 when keys are unavailable).

import { keysUnavailable, serverFault } from '../../../bearer/challenge.js';
import { ownClaim } from '../../../claims.js';
import { decodeUnverified } from '../../../decode.js';
import { isJwtError } from '../../../errors.js';
import { parseHeader, type JoseHeader } from '../../../header.js';
import type { GuardConfig } from '../../config-core.js';
import { dpopSection } from '../dpop/section.js';
import type { AuthOutcome, Identity, RequestContext, Verified } from '../../context.js';
import type { CounterName } from '../../counters.js';
import type { IssuerIndex } from '../../issuer-index.js';
import { serverTiming, withTiming, type Observer } from '../observe/observe.js';
import type { RejectionCode } from '../observe/rejection-log.js';
import * as answer from '../../responses.js';
import type { DpopAnswers } from '../dpop/dpop-answers.js';
import { issuerClaimMiss, type checkRules } from '../route/rules.js';

/** The claim behind a time failure, for the rejection log. */
const TIME_CLAIM: Partial<Record<string, string>> = { ERR_JWT_EXPIRED: 'exp', ERR_JWT_NOT_YET_VALID: 'nbf' };

/** What the checks read of the guard. */
export interface CheckScope {
  config: Pick<GuardConfig, 'realm' | 'jwksCooldownMs' | 'sections'> & Partial<Pick<GuardConfig, 'clockTolerance'>>;
  observe: Observer;
  issuers: IssuerIndex;
  log: (line: string) => void;
  /** The rules part's check (stages/route/index.ts), when the config sets rules or publicPaths. */
  checkRules?: typeof checkRules | undefined;
  /** The dpop stage's answers, when `dpop` is set. */
  dpop?: DpopAnswers | undefined;
  /** The guard's clock (ms), for the rules' step-up age (RFC 9470); default Date.now. */
  now?: (() => number) | undefined;
  /** The introspection stage's refusals (inactive: 401; endpoint fault: 503), when an issuer sets `introspection`. */
  introspection?: { failed(cx: RequestContext, e: unknown, g: CheckScope): AuthOutcome | undefined } | undefined;
}

/**
 * The issuer's and the rules' checks on a verified token: the identity, or the refusal.
 *
 * @example
 * return checkVerified(cx, verified, scope);
 */
export function checkVerified(cx: RequestContext, verified: Verified, g: CheckScope): AuthOutcome {
  const id = identityOf(cx, verified);
  return checkClaims(cx, id, g) ?? id;
}

/**
 * A verified token as the request's identity, with its Server-Timing entry (the verify stage's outcome).
 *
 * @example
 * return identityOf(cx, tiers.verify(cx.token, cx.ctx, cx) as Verified);
 */
export function identityOf(cx: RequestContext, verified: Verified): Identity {
  const timing = serverTiming(performance.now() - cx.started, verified.level);
  const header = verified.header;
  const token = cx.token;
  const iss = ownClaim(verified.payload, 'iss') as string;
  const payload = verified.payload;
  return { ok: true, anonymous: false, payload, header: () => header ?? headerOf(token), issuer: iss, timing };
}

/**
 * The issuer's and the rules' checks on an identity: undefined when they hold, else the refusal (the claims stage).
 *
 * @example
 * const stop = checkClaims(cx, id, scope);
 */
export function checkClaims(cx: RequestContext, id: Identity, g: CheckScope): AuthOutcome | undefined {
  const { observe } = g;
  const realm = g.config.realm;
  const timing = id.timing;
  const issuer = g.issuers.get(id.issuer)!;

  const claim = issuerClaimMiss(issuer, id.payload);
  if (claim !== undefined) {
    observe.count('rejected:claim_mismatch');
    return observe.refuse(cx, withTiming(answer.invalidToken(realm, answer.publicDescription(undefined)), timing), {
      code: 'claim_mismatch',
      status: 401,
      claim,
      ...verifiedSeen(id),
    });
  }
  // Per request, after whichever tier answered the verify: a cached verdict never skips a rule (step-up included).
  const nowS = (g.now ?? Date.now)() / 1000;
  const miss = g.checkRules?.(cx.matched!.rules, id.payload, issuer, nowS, g.config.clockTolerance);
  if (miss !== undefined) {
    observe.count(miss.status === 403 ? 'forbidden' : (`rejected:${miss.code}` as CounterName));
    const res =
      miss.status === 403
        ? answer.insufficientScope(realm, miss.scopes, miss.description)
        : miss.stepUp !== undefined
          ? answer.stepUpNeeded(realm, miss.stepUp)
          : answer.invalidToken(realm, miss.description);
    return observe.refuse(cx, withTiming(res, timing), {
      code: miss.code,
      status: miss.status,
      claim: miss.claim,
      ...verifiedSeen(id),
    });
  }
  return undefined;
}

/**
 * The refusal of a token the verify threw on; a fault that is not the token's
 * (not a JwtError, or a server fault) is thrown on, for a 500.
 *
 * @example
 * try { v = tiers.verify(token, ctx, cx); } catch (e) { return verifyFailed(cx, e, scope); }
 */
export function verifyFailed(cx: RequestContext, e: unknown, g: CheckScope): AuthOutcome {
  const { observe, config } = g;
  const opaque = g.introspection?.failed(cx, e, g);
  if (opaque !== undefined) return opaque;
  const timing = serverTiming(performance.now() - cx.started, 'fail');
  // Not the token's fault (a bug, the Wasm core, the options): handle/authenticate answer 500.
  if (!isJwtError(e) || serverFault(e.code)) throw e;
  // What the verify already read, when it got that far: the payload is never parsed twice.
  // A payload that did not parse is not tried again (peek would find nothing in it either).
  const o = cx.opened;
  const seen =
    o !== undefined
      ? { iss: o.iss, kid: o.kid, alg: o.alg }
      : e.code === 'ERR_JWT_PAYLOAD_INVALID'
        ? {}
        : peek(cx.token);
  if (keysUnavailable(e.code)) {
    observe.count('unavailable');
    g.log(JSON.stringify({ edgejwt: 'unavailable', code: e.code }));
    return observe.refuse(cx, withTiming(answer.keysUnavailable(config.jwksCooldownMs), timing), {
      code: e.code,
      status: 503,
      ...seen,
    });
  }
  // A token from an issuer nobody configured gets its own code, not "no matching key".
  const wrongIssuer = typeof seen.iss === 'string' && !g.issuers.has(seen.iss);
  observe.count(wrongIssuer ? 'rejected:wrong_issuer' : (`rejected:${e.code}` as CounterName));
  const code: RejectionCode = wrongIssuer ? 'wrong_issuer' : e.code;
  // A token sent with the DPoP scheme is answered with the DPoP challenge (RFC 9449 §7.1).
  const dpopAlgs = cx.scheme === 'dpop' ? dpopSection.of(config)?.algorithms : undefined;
  const res =
    dpopAlgs === undefined
      ? answer.invalidToken(config.realm, answer.publicDescription(e.code))
      : g.dpop!.dpopRefusal(config.realm, dpopAlgs, 'invalid_token', answer.publicDescription(e.code));
  return observe.refuse(cx, withTiming(res, timing), {
    code,
    status: 401,
    claim: e.claim ?? TIME_CLAIM[e.code],
    ...seen,
  });
}

/** An introspected (opaque) token has no JOSE header: its header() is this. */
const NO_HEADER = Object.freeze({ alg: '' }) as JoseHeader;

/** A verified token's protected header (its parse is cached by src/header.ts; the payload is not read). */
function headerOf(token: string): JoseHeader {
  // Only an introspected token has no header to parse (it was never opened). Most have no dot at all: answered
  // without the parse, whose throw cost 23 µs per cache hit in workerd (bench/guard/resource-workerd.ts).
  const dot = token.indexOf('.');
  if (dot < 0) return NO_HEADER;
  try {
    return parseHeader(token, dot).header;
  } catch {
    return NO_HEADER;
  }
}

/** iss, kid and alg of a token that verified, for the rejection log of a refusal after the verify. */
function verifiedSeen(id: Identity): { iss?: unknown; kid?: unknown; alg?: unknown } {
  const header = id.header();
  return { iss: id.payload.iss, kid: header.kid, alg: header.alg };
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
