// Key sets fetched over the network: a `jwksUrl` issuer's set and an OIDC discovery
// issuer's, through one counted fetch (every key-set fetch and its failures, non-200
// included, show in the counters) and the KV copy when there is one. build.ts loads
// this module only when an issuer needs it, so an inline-key guard never evaluates it.

import { createRemoteJWKSet, type RemoteJWKSet } from '../keys/remote.js';
import type { CacheConfig } from './cache-config.js';
import type { Counters } from './counters.js';
import { DiscoveredKeySource } from './discovery.js';
import type { KvJwksStore } from './jwks-store.js';

/** What the remote key sources share: the fetch settings, the clock, the KV copy. */
export interface RemoteKeysSetup {
  config: { jwksTimeoutMs: number; jwksCooldownMs: number; cache: CacheConfig };
  fetch: typeof fetch;
  counters: Counters;
  now: () => number;
  log: (line: string) => void;
  store: KvJwksStore | undefined;
}

/**
 * Makes the remote key sources of one guard and keeps every set it made.
 *
 * @example
 * const remote = new RemoteKeys(setup);
 * issuers.push({ ...base, jwks: remote.keySet('https://id.example.com/jwks') });
 */
export class RemoteKeys {
  /** Every remote set made (a discovery source's too). */
  readonly sets: RemoteJWKSet[] = [];
  readonly #setup: RemoteKeysSetup;
  readonly #fetch: typeof fetch;

  constructor(setup: RemoteKeysSetup) {
    this.#setup = setup;
    const { counters } = setup;
    const baseFetch = setup.fetch;
    this.#fetch = async (input, init) => {
      counters.inc('jwks_fetch');
      try {
        const res = await abortable(baseFetch(input, init), init?.signal ?? undefined);
        if (res.status !== 200) counters.inc('jwks_fetch_failed');
        return res;
      } catch (e) {
        counters.inc('jwks_fetch_failed');
        throw e;
      }
    };
  }

  /** The key set at `url` (a `jwksUrl` issuer, or the one discovery found). */
  keySet = (url: string): RemoteJWKSet => {
    const { config, now, store } = this.#setup;
    const set = createRemoteJWKSet(url, {
      timeoutDuration: config.jwksTimeoutMs,
      cooldownDuration: config.jwksCooldownMs,
      fetch: this.#fetch,
      now,
      ...(store === undefined ? {} : { store }),
    });
    this.sets.push(set);
    return set;
  };

  /** The key source of an issuer found through `<issuer>/.well-known/openid-configuration`. */
  discovered(issuer: string): DiscoveredKeySource {
    const { config, now, store, log } = this.#setup;
    return new DiscoveredKeySource({ issuer, fetch: this.#fetch, timeoutMs: config.jwksTimeoutMs, cooldownMs: config.jwksCooldownMs, now, store, keySet: this.keySet, log });
  }
}

/** Settle with the abort as soon as the library's timeout fires, even if the fetch ignores its signal. */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return p;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
