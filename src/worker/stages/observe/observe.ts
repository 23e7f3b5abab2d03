// The observation stage: every outcome is counted, refusals go to the rejection log
// (rate-limited, never a token) and, with an ANALYTICS binding, one Analytics Engine
// data point per outcome; verified requests carry a Server-Timing entry.

import type { AuthOutcome, RequestContext } from '../../context.js';
import type { CounterName, Counters } from '../../counters.js';
import type { IssuerIndex } from '../../issuer-index.js';
import type { Rejection, RejectionLog } from './rejection-log.js';
import { badRequest } from '../../responses.js';

/** The one Analytics Engine method the guard calls. */
export interface AnalyticsLike {
  writeDataPoint(point: { blobs?: string[]; doubles?: number[]; indexes?: string[] }): void;
}

/** What adds to a refusal's challenges (the resource stage's `resource_metadata`). */
type ChallengeEditor = { challenge(response: Response): Response };

/** A refusal's log fields; method, path and rule come from the request context. */
export type RefusalFields = Omit<Rejection, 'method' | 'path' | 'rule'>;

/**
 * Counts, logs and reports outcomes for one guard.
 *
 * @example
 * const observe = new Observer(parts, new IssuerIndex(parts.config.issuers));
 * return observe.refuse(cx, answer.missingToken(realm), { code: 'missing_token', status: 401 });
 */
export class Observer {
  readonly counters: Counters;
  readonly #rejections: RejectionLog;
  readonly #analytics: AnalyticsLike | undefined;
  readonly #issuers: IssuerIndex;

  /** The resource stage's `resource_metadata` on challenges (resource-stage.ts), when `resource` is set. */
  #resource: ChallengeEditor | undefined;

  constructor(
    parts: {
      counters: Counters;
      rejections: RejectionLog;
      analytics: AnalyticsLike | undefined;
      resource?: ChallengeEditor | undefined;
    },
    issuers: IssuerIndex,
  ) {
    this.counters = parts.counters;
    this.#resource = parts.resource;
    this.#rejections = parts.rejections;
    this.#analytics = parts.analytics;
    this.#issuers = issuers;
  }

  /** Every refusal's challenges edited by `editor` from now on (the resource stage's build sets it). */
  challengeWith(editor: ChallengeEditor): void {
    this.#resource = editor;
  }

  count(name: CounterName): void {
    this.counters.inc(name);
  }

  /** One Analytics Engine data point per outcome, when an ANALYTICS binding is set. */
  point(outcome: string, iss?: string): void {
    const a = this.#analytics;
    if (a === undefined) return;
    try {
      a.writeDataPoint({
        indexes: [outcome],
        blobs: [outcome, iss === undefined ? '' : iss.slice(0, 200)],
        doubles: [1],
      });
    } catch {
      this.counters.inc('analytics_error');
    }
  }

  /** Log the refusal (with the context's matched rules) and hand back its response. */
  refuse(cx: RequestContext, response: Response, r: RefusalFields): AuthOutcome {
    this.reject(cx, { ...r, rule: cx.rule });
    return { ok: false, response: this.challenged(response) };
  }

  /** A refusal's response as sent: with `resource`, its challenges point to the metadata (RFC 9728 §5.1). */
  challenged(response: Response): Response {
    return this.#resource === undefined ? response : this.#resource.challenge(response);
  }

  /** One rejection log line and one data point. */
  reject(cx: RequestContext, r: Omit<Rejection, 'method' | 'path'>): void {
    this.#rejections.write({ ...r, method: cx.request.method, path: cx.url.pathname });
    // Analytics gets configured issuers only: an unverified iss would let anyone write strings there.
    this.point(r.code, this.#issuers.has(r.iss) ? (r.iss as string) : undefined);
  }

  /** 400 for a path that cannot be read one way; counted, no log line (an attacker could flood the log). */
  refusePath(): Response {
    this.counters.inc('path_refused');
    this.point('path_refused');
    return badRequest('The request path is not accepted');
  }
}

/**
 * The Server-Timing entry for a verify: which tier answered, and how long it took.
 *
 * @example
 * serverTiming(0.12, 'l1'); // 'edgejwt;desc="l1";dur=0.120'
 */
export function serverTiming(ms: number, level: string): string {
  // Whole microseconds written out by hand: toFixed(3) costs several times more on every request.
  const x = ms * 1000;
  const us = Math.round(x);
  // An exact half is where Math.round (up) and toFixed (the double's exact decimal) can differ.
  if (!(us >= 0 && us < 1e15) || us - x === 0.5) return `edgejwt;desc="${level}";dur=${ms.toFixed(3)}`;
  const frac = us % 1000;
  return `edgejwt;desc="${level}";dur=${(us - frac) / 1000}.${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}`;
}

/** Add a Server-Timing entry to a response (its headers must be mutable). */
export function withTiming(res: Response, timing: string): Response {
  res.headers.append('server-timing', timing);
  return res;
}
