// The replay window itself, in memory: each DPoP replay key is accepted once until
// its expiry, then forgotten. Checked and recorded in one synchronous step, so inside
// a Durable Object (single-threaded) two requests can never both see a key as new.

/** A DPoP replay key as dpopReplayKey makes it: base64url of a SHA-256 (43 characters). */
export const REPLAY_KEY = /^[A-Za-z0-9_-]{43}$/;
/** No key is remembered longer than an hour: a bound on what one proof can pin. */
export const MAX_REPLAY_WINDOW_S = 3600;
/** Default bound on remembered keys per window (per shard). */
export const DEFAULT_MAX_KEYS = 100_000;

/** The outcome of one check: first use, a replay, or no room to remember it. */
export type ReplayOutcome = 'fresh' | 'replayed' | 'full';

/**
 * Why `key`/`expiresAt` (seconds) cannot be checked at `nowS`, or undefined when they can.
 *
 * @example
 * replayInputProblem('a'.repeat(43), now + 60, now); // undefined
 */
export function replayInputProblem(key: unknown, expiresAt: unknown, nowS: number): string | undefined {
  if (typeof key !== 'string' || !REPLAY_KEY.test(key)) return 'key is not a DPoP replay key';
  if (typeof expiresAt !== 'number' || !Number.isSafeInteger(expiresAt)) return 'expiresAt must be whole seconds';
  if (expiresAt <= nowS) return 'expiresAt is in the past';
  if (expiresAt > nowS + MAX_REPLAY_WINDOW_S) return 'expiresAt is more than an hour ahead';
  return undefined;
}

/**
 * Keys seen, each until its expiry; lapsed keys are swept at most once a second.
 *
 * @example
 * const w = new ReplayWindow();
 * w.checkAndRemember(key, now + 60, now); // { outcome: 'fresh', pruned: [] }
 * w.checkAndRemember(key, now + 60, now).outcome; // 'replayed'
 */
export class ReplayWindow {
  readonly #seen = new Map<string, number>();
  #nextSweep = 0;

  constructor(readonly maxKeys = DEFAULT_MAX_KEYS) {}

  get size(): number {
    return this.#seen.size;
  }

  load(entries: Iterable<[string, number]>): void {
    for (const [k, exp] of entries) this.#seen.set(k, exp);
  }

  /** The check and the record, in one step. `pruned` lists keys swept (for storage). */
  checkAndRemember(key: string, expiresAt: number, nowS: number): { outcome: ReplayOutcome; pruned: string[] } {
    const pruned = nowS >= this.#nextSweep || this.#seen.size >= this.maxKeys ? this.prune(nowS) : [];
    const until = this.#seen.get(key);
    if (until !== undefined && until > nowS) return { outcome: 'replayed', pruned };
    if (until === undefined && this.#seen.size >= this.maxKeys) return { outcome: 'full', pruned };
    this.#seen.set(key, expiresAt);
    return { outcome: 'fresh', pruned };
  }

  /** Forget keys whose expiry is at or before `nowS`. */
  prune(nowS: number): string[] {
    this.#nextSweep = nowS + 1;
    const gone: string[] = [];
    for (const [k, exp] of this.#seen) if (exp <= nowS) gone.push(k);
    for (const k of gone) this.#seen.delete(k);
    return gone;
  }

  /** The earliest expiry held (seconds), or undefined. */
  nextExpiry(): number | undefined {
    let min: number | undefined;
    for (const exp of this.#seen.values()) if (min === undefined || exp < min) min = exp;
    return min;
  }
}
