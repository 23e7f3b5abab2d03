// Scaffolding for running one stage of the guard's chain on its own (stages.test.ts
// and the stage-*.test.ts files): an Observer that keeps what it counts, logs and
// sends to analytics, and a RequestContext for a request to api.example.com.
import { RequestContext } from '../../src/worker/context.js';
import { Counters } from '../../src/worker/counters.js';
import { IssuerIndex } from '../../src/worker/issuer-index.js';
import type { IssuerConfig } from '../../src/worker/issuers-config.js';
import { Observer } from '../../src/worker/stages/observe/observe.js';
import { RejectionLog } from '../../src/worker/stages/observe/rejection-log.js';
import { requestTarget } from '../../src/worker/request-url.js';

export interface Observed {
  observe: Observer;
  counters: Counters;
  /** Rejection log lines. */
  lines: string[];
  /** Analytics data points. */
  points: { indexes?: string[]; blobs?: string[] }[];
}

/** An Observer for `issuers` whose counters, log lines and analytics points the test reads. */
export function observer(issuers: readonly IssuerConfig[]): Observed {
  const lines: string[] = [];
  const points: { indexes?: string[]; blobs?: string[] }[] = [];
  const counters = new Counters(() => undefined, 1);
  const observe = new Observer(
    {
      counters,
      rejections: new RejectionLog(
        (l) => lines.push(l),
        () => 1,
      ),
      analytics: { writeDataPoint: (p) => void points.push(p) },
    },
    new IssuerIndex(issuers),
  );
  return { observe, counters, lines, points };
}

/** A RequestContext for `path` on https://api.example.com. */
export function context(path: string, init?: RequestInit): RequestContext {
  const request = new Request(`https://api.example.com${path}`, init);
  return new RequestContext(request, requestTarget(request.url), { waitUntil: () => undefined });
}
