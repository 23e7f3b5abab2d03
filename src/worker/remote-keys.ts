// Key sets fetched over the network: a `jwksUrl` issuer's set and an OIDC discovery
// issuer's, through one counted fetch (every key-set fetch and its failures, non-200
// included, show in the counters) and the tiers beyond the isolate (this data centre's
// Cache API with CACHE_KEY unless cache.jwksColo is off, the KV copy). build.ts loads
// this module only when an issuer needs it, so an inline-key guard never evaluates it.

import { createRemoteJWKSet, type RemoteJWKSet } from '../keys/remote.js';
import type { Counters } from './counters.js';
import { DiscoveredKeySource } from './discovery.js';
import { remoteSetAges } from './jwks-max-age.js';
import type { KvJwksStore } from './jwks-store.js';
import { coloTier, KeySetTiers } from './key-set-tiers.js';
import { sealerFromSecret, type Sealer } from './seal.js';

/** What the remote key sources share: the fetch settings, the clock, the KV copy, the sealing secret. */
export interface RemoteKeysSetup {
  config: {
    jwksTimeoutMs: number;
    jwksCooldownMs: number;
    jwksMaxAgeMs: number;
    jwksStaleMs: number;
    cache: { jwksColo: boolean; kvTimeoutMs: number };
  };
  fetch: typeof fetch;
  counters: Counters;
  now: () => number;
  log: (line: string) => void;
  store: KvJwksStore | undefined;
  /** The CACHE_KEY sealer the KV tiers made (kv-parts.ts), passed on so it is derived once per guard. */
  sealer: Sealer | undefined;
  /** CACHE_KEY: without it the Cache API tier is off (its entries must be sealed). */
  cacheKey: string | undefined;
}

/**
 * The tiers of a guard's fetched key sets: the Cache API (when on and the runtime has one), then KV.
 *
 * @example
 * const remote = new RemoteKeys(setup, await keySetTiers(setup));
 */
export async function keySetTiers(setup: RemoteKeysSetup): Promise<KeySetTiers> {
  const { cache } = setup.config;
  // The KV tiers' sealer; derived here only when they are off (no KV binding in use, or no kvTiers stage).
  const colo = cache.jwksColo ? coloTier(setup.sealer ?? (await sealerFromSecret(setup.cacheKey))) : undefined;
  // One deadline over a lookup in every tier: the KV read's own bound plus the Cache API's few ms.
  return new KeySetTiers(colo, setup.store, cache.kvTimeoutMs + COLO_READ_MS);
}

/** What a Cache API read may add to the lookup deadline, ms. */
const COLO_READ_MS = 50;

/**
 * Makes the remote key sources of one guard and keeps every set it made.
 *
 * @example
 * const remote = new RemoteKeys(setup, await keySetTiers(setup));
 * issuers.push({ ...base, jwks: remote.keySet('https://id.example.com/jwks') });
 */
export class RemoteKeys {
  /** Every remote set made (a discovery source's too). */
  readonly sets: RemoteJWKSet[] = [];
  /** Where sets and documents are kept beyond the isolate; its writes go to the request's waitUntil. */
  readonly tiers: KeySetTiers;
  readonly #setup: RemoteKeysSetup;
  readonly #fetch: typeof fetch;

  constructor(setup: RemoteKeysSetup, tiers: KeySetTiers) {
    this.#setup = setup;
    this.tiers = tiers;
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
    const { config, now } = this.#setup;
    const { stores, hold } = this.tiers;
    const set = createRemoteJWKSet(url, {
      timeoutDuration: config.jwksTimeoutMs,
      cooldownDuration: config.jwksCooldownMs,
      ...remoteSetAges(config.jwksMaxAgeMs, config.jwksStaleMs),
      fetch: this.#fetch,
      now,
      ...(stores.length === 0 ? {} : { store: stores, storeTimeoutDuration: this.tiers.lookupMs, waitUntil: hold }),
    });
    this.sets.push(set);
    return set;
  };

  /** The key source of an issuer found through `<issuer>/.well-known/openid-configuration`. */
  discovered(issuer: string): DiscoveredKeySource {
    const { config, now, log } = this.#setup;
    const store = this.tiers.stores.length === 0 ? undefined : this.tiers;
    return new DiscoveredKeySource({
      issuer,
      fetch: this.#fetch,
      timeoutMs: config.jwksTimeoutMs,
      cooldownMs: config.jwksCooldownMs,
      now,
      store,
      keySet: this.keySet,
      log,
    });
  }
}
