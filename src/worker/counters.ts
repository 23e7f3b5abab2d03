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

/**
 * The guard's counters for one isolate.
 *
 * `since` is when counting began. Workers stop the clock at the epoch while a script
 * starts up, so a guard built then (warmed at module scope) reads 0; `since` is then
 * taken from the clock at the first event counted instead, and is undefined (`null` in
 * the admin answer) until one is: never "1970".
 *
 * @example
 * const c = new Counters(console.log, Date.now(), Date.now);
 * c.inc('requests');
 * c.sinceIso(); // '2026-11-27T02:40:00.000Z'
 */
export class Counters {
  readonly #values = new Map<string, number>();
  readonly #log: (line: string) => void;
  readonly #clock: () => number;
  #since: number | undefined;
  #lastLog: number;

  constructor(
    log: (line: string) => void = (l) => console.log(l),
    now: number = Date.now(),
    clock: () => number = () => Date.now(),
  ) {
    this.#log = log;
    this.#clock = clock;
    this.#since = now > 0 ? now : undefined;
    this.#lastLog = now;
  }

  /** When counting began (ms since the epoch), or undefined while the clock has not run. */
  get startedAt(): number | undefined {
    return this.#since;
  }

  /** `startedAt` as an ISO date, or null. */
  sinceIso(): string | null {
    return this.#since === undefined ? null : new Date(this.#since).toISOString();
  }

  inc(name: CounterName, by = 1): void {
    if (this.#since === undefined) this.#startClock();
    this.#values.set(name, (this.#values.get(name) ?? 0) + by);
  }

  #startClock(): void {
    const t = this.#clock();
    if (t > 0) {
      this.#since = t;
      // The minute between log lines counts from here too, not from the epoch.
      this.#lastLog = t;
    }
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
    this.#log(JSON.stringify({ edgejwt: 'counters', since: this.sinceIso(), ...this.snapshot() }));
  }
}
