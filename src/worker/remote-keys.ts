// Key sets fetched over the network: a `jwksUrl` issuer's set and an OIDC discovery
// issuer's, through one counted fetch (every key-set fetch and its failures, non-200
// included, show in the counters) and the KV copy when there is one. build.ts loads
// this module only when an issuer needs it, so an inline-key guard never evaluates it.

import { createRemoteJWKSet, type RemoteJWKSet } from '../keys/remote.js';
import type { Counters } from './counters.js';
import { DiscoveredKeySource } from './discovery.js';
import { remoteSetAges } from './jwks-max-age.js';
import type { KvJwksStore } from './jwks-store.js';

/** What the remote key sources share: the fetch settings, the clock, the KV copy. */
export interface RemoteKeysSetup {
  config: { jwksTimeoutMs: number; jwksCooldownMs: number; jwksMaxAgeMs: number };
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
        // The caller's deadline (src/keys/fetch-deadline.ts) covers this call and the body.
        const res = await baseFetch(input, init);
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
      ...remoteSetAges(config.jwksMaxAgeMs),
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
