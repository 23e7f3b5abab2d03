// The isolate's copy of the revocation list. No timers: a request that finds the copy
// older than `refreshMs` waits for one refresh (shared by every request arriving
// meanwhile, bounded by `timeoutMs`); otherwise a check is two Map lookups.

import { RevocationIndex } from './entry.js';
import type { RevocationSource } from './source.js';

/**
 * `required`: revocation must be known to be current: once the last good refresh is
 * older than `maxStaleMs` (or there never was one), `check` answers "unavailable"
 * (the guard's 503). Without it a stale copy is used as it is.
 *
 * @example
 * const options: RevocationViewOptions = { refreshMs: 1000, timeoutMs: 250, required: true, maxStaleMs: 10_000 };
 */
export interface RevocationViewOptions {
  refreshMs?: number;
  timeoutMs?: number;
  required?: boolean;
  maxStaleMs?: number;
  now?: () => number;
  /** The issuer an `iss` spelling belongs to (RevocationIndex); default: the spelling itself. */
  issuerOf?: (iss: string) => string;
}

/** The verdict on one verified payload. */
export type RevocationVerdict = 'ok' | 'revoked' | 'unavailable';

/**
 * Per-isolate revocation state, refreshed lazily from a RevocationSource.
 *
 * @example
 * const view = new RevocationView(durableObjectRevocationSource(env.REVOCATIONS), { required: true });
 * if ((await view.check(payload)) !== 'ok') return new Response(null, { status: 401 });
 */
export class RevocationView {
  readonly #source: RevocationSource;
  readonly #index: RevocationIndex;
  readonly #refreshMs: number;
  readonly #timeoutMs: number;
  readonly #required: boolean;
  readonly #maxStaleMs: number;
  readonly #now: () => number;
  #version = 0;
  #lastOk = -Infinity;
  #lastAttempt = -Infinity;
  #inFlight: Promise<void> | undefined;

  constructor(source: RevocationSource, options: RevocationViewOptions = {}) {
    this.#source = source;
    this.#index = new RevocationIndex(options.issuerOf);
    this.#refreshMs = options.refreshMs ?? 1000;
    this.#timeoutMs = options.timeoutMs ?? 250;
    this.#required = options.required ?? false;
    this.#maxStaleMs = options.maxStaleMs ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** The list version this isolate has applied. */
  get version(): number {
    return this.#version;
  }

  /** Revoked, not revoked, or (required, and no current list) unavailable. */
  async check(payload: Readonly<Record<string, unknown>>): Promise<RevocationVerdict> {
    const now = this.checkNow(payload);
    if (now !== undefined) return now;
    await this.refresh();
    return this.#verdict(payload, this.#now());
  }

  /**
   * The verdict without waiting, or undefined when a refresh is due (then `check`).
   * With a current copy: a clock read and two Map size tests when nothing is revoked.
   *
   * @example
   * const verdict = view.checkNow(payload) ?? (await view.check(payload));
   */
  checkNow(payload: Readonly<Record<string, unknown>>): RevocationVerdict | undefined {
    const now = this.#now();
    // After a failure the next try waits refreshMs too: a down object is not hammered.
    if (now - this.#lastAttempt >= this.#refreshMs) return undefined;
    return this.#verdict(payload, now);
  }

  #verdict(payload: Readonly<Record<string, unknown>>, now: number): RevocationVerdict {
    if (this.#required && now - this.#lastOk > this.#maxStaleMs) return 'unavailable';
    return this.#index.revokes(payload, Math.floor(now / 1000)) ? 'revoked' : 'ok';
  }

  /** The current copy's answer, without refreshing. */
  isRevoked(payload: Readonly<Record<string, unknown>>): boolean {
    return this.#index.revokes(payload, Math.floor(this.#now() / 1000));
  }

  /** Fetch and apply the delta; one at a time; never rejects (a failure leaves the copy as it was). */
  refresh(): Promise<void> {
    this.#inFlight ??= this.#refreshOnce().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #refreshOnce(): Promise<void> {
    this.#lastAttempt = this.#now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('revocation refresh timed out')), this.#timeoutMs);
    });
    try {
      const delta = await Promise.race([this.#source.since(this.#version), deadline]);
      if (delta.full) this.#index.clear();
      else if (delta.version < this.#version) return; // an older answer than we hold: ignore it
      for (const e of delta.entries) this.#index.add(e);
      this.#version = delta.version;
      this.#index.prune(Math.floor(this.#now() / 1000));
      this.#lastOk = this.#now();
    } catch {
      // Counted as stale: `required` turns it into "unavailable" after maxStaleMs.
    } finally {
      clearTimeout(timer);
    }
  }
}
