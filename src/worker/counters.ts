// Outcome counters per isolate: logged as one JSON line now and then, and
// served on the admin path. Names are fixed strings (never request data), so
// the map stays small whatever clients send.

export type CounterName =
  | 'requests'
  | 'accepted'
  | 'public'
  | 'missing_token'
  | 'malformed_token'
  | 'preflight'
  | 'analytics_error'
  | 'forbidden'
  | 'unavailable'
  | 'internal_error'
  | 'origin_error'
  | 'path_refused'
  | 'request_refused'
  | 'l1_hit'
  | 'l2_hit'
  | 'l2_miss'
  | 'l2_error'
  | 'l2_rejected_entry'
  | 'l2_write'
  | 'l2_write_error'
  | 'l2_write_deferred'
  | 'l2_write_over_budget'
  | 'verified'
  | 'jwks_fetch'
  | 'jwks_fetch_failed'
  | 'jwks_store_hit'
  | 'jwks_store_error'
  | `rejected:${string}`;

const LOG_EVERY_MS = 60_000;

export class Counters {
  readonly #values = new Map<string, number>();
  readonly startedAt: number;
  readonly #log: (line: string) => void;
  #lastLog: number;

  constructor(log: (line: string) => void = (l) => console.log(l), now: number = Date.now()) {
    this.#log = log;
    this.startedAt = now;
    this.#lastLog = now;
  }

  inc(name: CounterName, by = 1): void {
    this.#values.set(name, (this.#values.get(name) ?? 0) + by);
  }

  get(name: CounterName): number {
    return this.#values.get(name) ?? 0;
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.#values].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /** One log line at most every minute, so `wrangler tail` shows the trend without noise. */
  maybeLog(now: number = Date.now()): void {
    if (now - this.#lastLog < LOG_EVERY_MS) return;
    this.#lastLog = now;
    this.#log(JSON.stringify({ edgejwt: 'counters', since: new Date(this.startedAt).toISOString(), ...this.snapshot() }));
  }
}
