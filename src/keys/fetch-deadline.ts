// One deadline over a whole exchange with an issuer: the request, the headers and
// every byte of the body. A discovery document or key set whose body drips or
// stalls after the headers would otherwise hold the fetch (and every verify that
// joined it) for ever. On expiry the fetch is aborted through its signal and the
// body reader is cancelled, and the caller gets ERR_JWKS_TIMEOUT at once even if
// the fetch or the stream ignores the abort (an injected fetch may). The deadline is
// the caller's: a key-set lookup starts it before its store reads and its claim, so
// the fetch gets only what is left of the whole lookup (remote.ts).

import { JwtError } from '../errors.js';
import { plainFetch } from './plain-fetch.js';
import { readCapped } from './read-capped.js';

/**
 * A timer that aborts a signal and rejects every promise raced against it.
 *
 * @example
 * const d = new Deadline(2000);
 * try { await d.race(fetch(url, { signal: d.signal })); } finally { d.clear(); }
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #expired: Promise<never>;
  readonly #end: number;
  #passed = false;

  constructor(ms: number) {
    this.#end = Date.now() + ms;
    let reject!: (e: JwtError) => void;
    this.#expired = new Promise<never>((_, r) => (reject = r));
    // Nobody may be racing when it fires: that is not an unhandled rejection.
    this.#expired.catch(() => undefined);
    this.#timer = setTimeout(() => {
      this.#passed = true;
      this.#controller.abort();
      reject(new JwtError('ERR_JWKS_TIMEOUT'));
    }, ms);
  }

  /** Aborted when the deadline passes. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True once the deadline has passed. */
  get passed(): boolean {
    return this.#passed;
  }

  /**
   * A deadline `ms` from now, or when this one passes if that is sooner: one step of a longer
   * exchange under its own cap (a store read) that still ends within the whole. Clear it too.
   *
   * @example
   * const read = lookup.within(500);
   * try { await read.race(store.get(url)); } finally { read.clear(); }
   */
  within(ms: number): Deadline {
    return new Deadline(this.#passed ? 0 : Math.min(ms, this.#end - Date.now()));
  }

  /** `p`, or ERR_JWKS_TIMEOUT when the deadline passes first. */
  race<T>(p: T | Promise<T>): Promise<T> {
    return Promise.race([p, this.#expired]);
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}

/** What fetchCapped asks for, besides the URL. */
export interface CappedFetch {
  /** The fetch to use (called as a plain function, plain-fetch.ts); the runtime's when undefined. */
  fetch: typeof fetch | undefined;
  headers: Record<string, string>;
  /** The deadline for the whole exchange, body included (the caller's: it may have begun before). */
  deadline: Deadline;
  /** Largest body accepted, in bytes. */
  cap: number;
  /** What is fetched, for error reasons ("key set", "discovery document"). */
  what: string;
}

/**
 * GET `url` (never following a redirect) and read its 200 body as UTF-8 text under
 * the caller's deadline. ERR_JWKS_TIMEOUT when the deadline passes (headers or body; once passed, a fetch's
 * aborted signal sends nothing), ERR_JWKS_FETCH_FAILED for a network fault or another status, ERR_JWKS_INVALID
 * for a body over `cap` or not UTF-8.
 *
 * @example
 * const deadline = new Deadline(3000);
 * try {
 *   const { text } = await fetchCapped(url, { fetch, headers: {}, deadline, cap: 65_536, what: 'discovery document' });
 * } finally {
 *   deadline.clear();
 * }
 */
export async function fetchCapped(url: string, o: CappedFetch): Promise<{ text: string; headers: Headers }> {
  const send = plainFetch(o.fetch);
  const deadline = o.deadline;
  let res: Response;
  try {
    // A redirect could point the verifier at an attacker's keys: never follow one.
    const init: RequestInit = { method: 'GET', headers: o.headers, redirect: 'manual', signal: deadline.signal };
    res = await deadline.race(send(url, init));
  } catch (cause) {
    throw new JwtError(deadline.passed ? 'ERR_JWKS_TIMEOUT' : 'ERR_JWKS_FETCH_FAILED', { cause });
  }
  if (res.status !== 200) {
    void res.body?.cancel().catch(() => undefined);
    throw new JwtError('ERR_JWKS_FETCH_FAILED', { reason: `${o.what}: HTTP status ${res.status}` });
  }
  const text = await readCapped(res, o.cap, o.what, deadline);
  return { text, headers: res.headers };
}
