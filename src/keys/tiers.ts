// The stores of a remote key set, nearest first, read under one deadline for the
// whole lookup (not one per tier): the first fresh entry wins and is copied into the
// nearer tiers that lacked it; past freshness the newest entry is kept as the stale
// fallback. Writes go to every tier and are handed to waitUntil, never awaited by a
// verify. The first tier that keeps fetch attempts is where isolates coordinate.

import { Deadline } from './fetch-deadline.js';
import { fetchAttempt, storedEntry, type FetchAttempt, type JWKSStore, type StoredJWKS } from './store.js';

/**
 * The wait between starting a claim's write and reading it back, ms: long enough for the claims of one burst to
 * land first (at 5 ms, 20 of 100 claimants fetched where sealing was slower: headless Chromium's WebCrypto).
 */
const SETTLE_MS = 25;
/** The longest a claimant waits for its own note to land before reading back, ms (a stuck tier must not stall). */
const NOTE_WAIT_MS = 500;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Read `tiers` nearest first, all under `deadline`, until one answers what `enough` takes. Returns each
 * tier's answer in order (undefined: a miss, an error, a malformed value); it stops at the deadline, so
 * the tiers past it are absent. A cache, never a dependency: a tier that throws is a miss, the next is read.
 *
 * @example
 * const seen = await readNearestFirst([colo, kv], new Deadline(500), (t) => t.getDocument(url), () => true);
 */
export async function readNearestFirst<T, V>(
  tiers: readonly T[],
  deadline: Deadline,
  get: (tier: T) => V | undefined | Promise<V | undefined>,
  enough: (value: V) => boolean,
): Promise<(V | undefined)[]> {
  const seen: (V | undefined)[] = [];
  for (const tier of tiers) {
    if (deadline.passed) break;
    let value: V | undefined;
    try {
      value = await deadline.race(Promise.resolve().then(() => get(tier)));
    } catch {
      if (deadline.passed) break;
    }
    seen.push(value);
    if (value !== undefined && enough(value)) break;
  }
  return seen;
}

export interface TierSettings {
  url: string;
  /** Past freshness, how long an entry is still worth keeping (staleDuration), ms. */
  staleMs: number;
  /** How long an attempt note matters (cooldownDuration), ms. */
  cooldownMs: number;
  /** How long a fetch may take (timeoutDuration): an in-flight note older than this was abandoned, ms. */
  fetchMs: number;
  /** The cap on a lookup in the tiers and on a claim (storeTimeoutDuration), within the verify's deadline, ms. */
  lookupMs: number;
  waitUntil: ((write: Promise<unknown>) => void) | undefined;
  now: () => number;
}

export class StoreTiers {
  readonly #stores: readonly JWKSStore[];
  readonly #notes: JWKSStore | undefined;
  readonly #s: TierSettings;

  constructor(stores: readonly JWKSStore[], settings: TierSettings) {
    this.#stores = stores;
    this.#notes = stores.find((s) => typeof s.getAttempt === 'function' && typeof s.putAttempt === 'function');
    this.#s = settings;
  }

  /** True when a tier keeps fetch attempts (refetches bounded per data centre). */
  get shared(): boolean {
    return this.#notes !== undefined;
  }

  /** The first fresh entry nearest first, else the newest stale one; undefined when no tier answers in time. */
  async read(deadline: Deadline): Promise<StoredJWKS | undefined> {
    const get = async (s: JWKSStore) => storedEntry(await s.get(this.#s.url));
    const seen = await readNearestFirst(this.#stores, deadline, get, (e) => this.#s.now() < e.freshUntil);
    let best: StoredJWKS | undefined;
    for (const e of seen) if (e !== undefined && (best === undefined || e.fetchedAt > best.fetchedAt)) best = e;
    const found = best;
    if (found !== undefined) {
      // Copy it where it was missing or older, so the next isolate finds it nearer.
      seen.forEach((e, i) => {
        if (e === undefined || e.fetchedAt < found.fetchedAt) this.#put(this.#stores[i]!, found);
      });
    }
    return found;
  }

  /** Every tier gets the set just fetched. */
  write(entry: StoredJWKS): void {
    for (const store of this.#stores) this.#put(store, entry);
  }

  /** The last fetch attempt noted by any isolate sharing the nearest attempt-keeping tier. */
  async lastAttempt(deadline: Deadline): Promise<FetchAttempt | undefined> {
    const notes = this.#notes;
    if (notes === undefined) return undefined;
    return fetchAttempt(await deadline.race(Promise.resolve().then(() => notes.getAttempt!(this.#s.url))));
  }

  /** Note an attempt; the promise settles when the tier has it (for handOff: no request waits for it). */
  noteAttempt(attempt: FetchAttempt): Promise<void> {
    const notes = this.#notes;
    if (notes === undefined) return Promise.resolve();
    const ttl = Math.ceil(this.#s.cooldownMs / 1000) + 1;
    return Promise.resolve().then(() => notes.putAttempt!(this.#s.url, attempt, ttl));
  }

  /**
   * Claim the next fetch for this place: read the last note; unless it still stands,
   * write ours and read it back. Only the isolate whose note stands fetches (a lost
   * race lets two through, not a hundred). A tier that does not answer: we fetch.
   * Within `lookup` (the verify's whole lookup) and at most one lookupMs.
   */
  async claim(lookup: Deadline): Promise<{ won: true; id: string } | { won: false; note: FetchAttempt }> {
    const id = crypto.randomUUID();
    const deadline = lookup.within(this.#s.lookupMs);
    try {
      const note = await this.lastAttempt(deadline);
      if (note !== undefined && this.#stands(note)) return { won: false, note };
      // Once our note has landed, wait as long again (at least SETTLE_MS) so the others of one burst land too
      // before we read back: the last one stands. Writes are as slow as the tier is busy, so the wait scales with
      // ours. The write also goes to waitUntil, and the wait for it is capped at NOTE_WAIT_MS: a tier slower than
      // that costs fetches (a claimant that reads back too soon fetches), never safety.
      const started = Date.now();
      const write = this.noteAttempt({ at: this.#s.now(), id });
      this.handOff(write);
      await deadline.race(Promise.race([write, sleep(NOTE_WAIT_MS)]));
      await deadline.race(sleep(Math.max(SETTLE_MS, Date.now() - started)));
      const back = await this.lastAttempt(deadline);
      return back !== undefined && back.id !== id ? { won: false, note: back } : { won: true, id };
    } catch {
      return { won: true, id };
    } finally {
      deadline.clear();
    }
  }

  /**
   * Another isolate holds the claim: wait (polling the shared tier, until `deadline`: what
   * is left of the verify's lookup) until `accept` takes the set it stores (returned), or its
   * note has an outcome and nothing `accept` takes is here (the note is returned).
   * Undefined: no outcome in time.
   */
  async awaitOther<T>(
    note: FetchAttempt,
    accept: (e: StoredJWKS) => T | undefined,
    deadline: Deadline,
  ): Promise<T | FetchAttempt | undefined> {
    const notes = this.#notes!;
    try {
      let current = note;
      for (let delay = 10; ; delay = Math.min(2 * delay, 500)) {
        if (current.outcome === 'failed') return current;
        const entry = storedEntry(await deadline.race(Promise.resolve().then(() => notes.get(this.#s.url))));
        const taken = entry === undefined ? undefined : accept(entry);
        if (taken !== undefined) return taken;
        if (current.outcome === 'ok') return current;
        await deadline.race(sleep(delay));
        current = (await this.lastAttempt(deadline)) ?? current;
      }
    } catch {
      return undefined;
    }
  }

  // Within the cooldown, and when still in flight, not yet abandoned.
  #stands(note: FetchAttempt): boolean {
    const age = this.#s.now() - note.at;
    if (age >= this.#s.cooldownMs) return false;
    return note.outcome !== undefined || age < this.#s.fetchMs + this.#s.lookupMs;
  }

  /** Hand a write that nobody waits for to waitUntil. */
  handOff(write: Promise<unknown>): void {
    const settled = write.catch(() => undefined);
    try {
      this.#s.waitUntil?.(settled);
    } catch {
      // A waitUntil that throws (the request already ended) loses the write, nothing else.
    }
  }

  #put(store: JWKSStore, entry: StoredJWKS): void {
    const ttl = Math.ceil((entry.freshUntil + this.#s.staleMs - this.#s.now()) / 1000);
    if (ttl <= 0) return;
    this.handOff(Promise.resolve().then(() => store.put(this.#s.url, entry, ttl)));
  }
}
