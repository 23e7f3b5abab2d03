// The introspection client (RFC 7662): asks an authorization server whether an opaque
// token is active, with client_secret_basic (RFC 6749 §2.3.1), under one deadline over
// the request and every byte of the answer (src/keys/fetch-deadline.ts), never following
// a redirect, never reading more than MAX_ANSWER_BYTES. Verdicts are cached per isolate
// under a SHA-256 of the token (the token itself is never a key and never logged), and
// one request is in flight per token.

import { digest } from '../digest.js';
import { Deadline } from '../keys/fetch-deadline.js';
import { readCapped } from '../keys/read-capped.js';
import { INACTIVE, readAnswer, type Introspection } from './answer.js';
import { IntrospectionError } from './error.js';

/** What createIntrospector needs: the endpoint (already checked: https, http only on loopback) and its client. */
export interface IntrospectionOptions {
  /** The issuer whose endpoint this is: an active answer's `iss` must be it. */
  readonly issuer: string;
  readonly endpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Longest time an active verdict is reused, ms (never past the token's `exp`). Default 30 000; 0: no cache. */
  readonly cacheMs?: number | undefined;
  /** One deadline over the whole exchange, ms. Default 3000. */
  readonly timeoutMs?: number | undefined;
  /** The fetch to use; called as a plain function, never as a method of this object. */
  readonly fetch?: typeof fetch | undefined;
  /** The clock, ms since the epoch (tests). Default Date.now. */
  readonly now?: (() => number) | undefined;
}

/** Asks, and remembers, whether tokens are active. */
export interface Introspector {
  /** The cached verdict for `token`, or undefined (then call introspect). Never asks the network. */
  cached(token: string): Introspection | undefined;
  /** The verdict for `token`: cached, joined to a request in flight, or asked. Rejects with IntrospectionError. */
  introspect(token: string): Promise<Introspection>;
}

export const DEFAULT_CACHE_MS = 30_000;
export const DEFAULT_TIMEOUT_MS = 3_000;
/**
 * How long an inactive verdict is reused, at most (and never past cacheMs): long enough that a client
 * retrying a revoked or junk token costs the authorization server one call per isolate every few seconds,
 * short enough that a token the server did not know yet (issued a moment ago, asked of a lagging replica)
 * works again at once.
 */
export const INACTIVE_CACHE_MS = 5_000;
/** RFC 7662 answers are a few hundred bytes; 64 KiB leaves room for large `cnf` or extension members. */
export const MAX_ANSWER_BYTES = 65_536;
/** Verdicts kept per isolate; past it the oldest is dropped first. */
export const MAX_ENTRIES = 10_000;

interface Entry {
  readonly verdict: Introspection;
  /** ms: the entry is used while now < until. */
  readonly until: number;
}

/**
 * An introspector for one issuer's endpoint.
 *
 * @example
 * const clientSecret = env.INTROSPECTION_SECRET;
 * const introspector = createIntrospector({ issuer, endpoint, clientId: 'guard', clientSecret });
 * const verdict = await introspector.introspect(token);
 * if (verdict.active) verdict.claims.scope; // checked like a JWT's claims
 */
export function createIntrospector(options: IntrospectionOptions): Introspector {
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  // A local function, not options.fetch(...): a runtime fetch called as another object's method throws.
  const send: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const headers = {
    authorization: basicAuthorization(options.clientId, options.clientSecret),
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Introspection>>();

  const lookup = (key: string): Introspection | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (now() < entry.until) return entry.verdict;
    entries.delete(key);
    return undefined;
  };

  const remember = (key: string, verdict: Introspection): void => {
    const t = now();
    const limit = verdict.active ? cacheMs : Math.min(cacheMs, INACTIVE_CACHE_MS);
    const until = verdict.active ? Math.min(t + limit, (verdict.claims.exp as number) * 1000) : t + limit;
    if (until <= t) return;
    entries.delete(key);
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    entries.set(key, { verdict, until });
  };

  const ask = async (token: string): Promise<Introspection> => {
    const body = `token=${formEncode(token)}&token_type_hint=access_token`;
    const text = await exchange(send, options.endpoint, { method: 'POST', headers, body }, timeoutMs);
    return readAnswer(text, options.issuer);
  };

  return {
    cached: (token) => lookup(tokenKey(token)),
    introspect(token) {
      const key = tokenKey(token);
      const hit = lookup(key);
      if (hit !== undefined) return Promise.resolve(hit);
      const pending = inFlight.get(key);
      if (pending !== undefined) return pending;
      const p = ask(token).then((verdict) => {
        remember(key, verdict);
        return verdict;
      });
      // A failure is never remembered: the next request asks again.
      const settled = p.finally(() => inFlight.delete(key));
      inFlight.set(key, settled);
      return settled;
    },
  };
}

/** The cache key of a token: its SHA-256 as a 32-character binary string (cheap to compare, never the token). */
function tokenKey(token: string): string {
  return String.fromCharCode(...digest('SHA-256', token));
}

/** RFC 6749 Appendix B: application/x-www-form-urlencoded, as URLSearchParams writes it (space as `+`). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/**
 * RFC 6749 §2.3.1: client_secret_basic form-encodes the id and the secret before joining them, so a `:` in
 * the id cannot move the split and non-ASCII text is carried as UTF-8.
 */
function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
}

/**
 * POST under one deadline; the 200 body as text. 401/403 mean the endpoint refused the guard's own
 * credentials; any other status, a redirect, a network fault or the deadline: ERR_INTROSPECTION_FAILED.
 */
async function exchange(send: typeof fetch, url: string, init: RequestInit, timeoutMs: number): Promise<string> {
  const deadline = new Deadline(timeoutMs);
  try {
    let res: Response;
    try {
      res = await deadline.race(send(url, { ...init, redirect: 'manual', signal: deadline.signal }));
    } catch (cause) {
      throw new IntrospectionError('ERR_INTROSPECTION_FAILED', deadline.passed ? 'timed out' : 'network error', cause);
    }
    if (res.status !== 200) {
      void res.body?.cancel().catch(() => undefined);
      const refused = res.status === 401 || res.status === 403 ? ' (client credentials refused)' : '';
      throw new IntrospectionError('ERR_INTROSPECTION_FAILED', `HTTP status ${res.status}${refused}`);
    }
    try {
      return await readCapped(res, MAX_ANSWER_BYTES, 'introspection answer', deadline);
    } catch (cause) {
      // readCapped speaks in key-set codes: a size or encoding fault is the answer's, the rest the exchange's.
      if ((cause as { code?: string }).code === 'ERR_JWKS_INVALID') {
        throw new IntrospectionError('ERR_INTROSPECTION_INVALID', 'answer too large or not UTF-8', cause);
      }
      const reason = deadline.passed ? 'timed out' : 'answer could not be read';
      throw new IntrospectionError('ERR_INTROSPECTION_FAILED', reason, cause);
    }
  } finally {
    deadline.clear();
  }
}
