// The configured issuer entries by every `iss` spelling they accept, built on first
// use (a request that never gets that far, a preflight, does not pay for it).

import type { IssuerConfig } from './issuers-config.js';

/**
 * Look up an issuer entry by a token's `iss`.
 *
 * @example
 * const index = new IssuerIndex(config.issuers);
 * index.get('https://id.example.com')?.audience;
 */
export class IssuerIndex {
  readonly #issuers: readonly IssuerConfig[];
  #byIss: Map<string, IssuerConfig> | undefined;

  constructor(issuers: readonly IssuerConfig[]) {
    this.#issuers = issuers;
  }

  get(iss: string): IssuerConfig | undefined {
    return this.#map().get(iss);
  }

  /** Whether `iss` (any value, unverified) names a configured issuer. */
  has(iss: unknown): boolean {
    return typeof iss === 'string' && this.#map().has(iss);
  }

  #map(): Map<string, IssuerConfig> {
    if (this.#byIss === undefined) {
      this.#byIss = new Map();
      for (const is of this.#issuers) for (const name of is.issuer) this.#byIss.set(name, is);
    }
    return this.#byIss;
  }
}
