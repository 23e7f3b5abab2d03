// Deploy-time defence for the guard's policies: every guard builds each issuer's policy
// data straight from its checked config entry (src/worker/issuer-settings.ts issuerPolicy),
// with none of the library's option code. `edgejwt check-config` and `build-guard` also run
// that option code (options.ts policyData, as createVerifier's `issuers` mode would) and
// refuse a config for which the two differ, so a later change to the library's option
// handling that the guard's derivation missed stops a deploy instead of loosening a check.

import { isDeepStrictEqual } from 'node:util';
import { algSpec } from '../algorithms.js';
import { policyData, type PolicyData } from '../options.js';
import { addIssuer } from '../verify-path.js';
import { ConfigError } from '../worker/config-error.js';
import type { GuardConfig } from '../worker/config.js';
import { issuerPolicy, issuerSettings, issuersError } from '../worker/issuer-settings.js';

/**
 * Each issuer entry's policy data as the library's option code makes it, in the order of
 * `config.issuers`; a ConfigError naming the setting when the library refuses one.
 *
 * @example
 * const policies = checkedPolicies(parseConfig(raw));
 */
export function checkedPolicies(config: GuardConfig): PolicyData[] {
  const byIssuer = new Map<string, PolicyData>();
  try {
    return config.issuers.map((is) => {
      // The defaults createVerifier's `issuers` mode merges under each entry: the config's clockTolerance.
      const data = policyData(issuerSettings(is), { clockTolerance: config.clockTolerance }, algSpec);
      addIssuer(byIssuer, data);
      return data;
    });
  } catch (e) {
    throw issuersError(e);
  }
}

/**
 * Throws a ConfigError naming the first issuer entry whose guard policy (issuerPolicy) is not
 * deep-equal to the library's (`library`, checkedPolicies unless a test swaps it).
 *
 * @example
 * assertPoliciesAgree(parseConfig(raw)); // before writing a compiled entry
 */
export function assertPoliciesAgree(config: GuardConfig, library: (config: GuardConfig) => readonly PolicyData[] = checkedPolicies): void {
  const want = library(config);
  for (const [i, is] of config.issuers.entries()) {
    if (!isDeepStrictEqual(issuerPolicy(is, config.clockTolerance), want[i])) {
      throw new ConfigError(`issuers[${i}]`, "the guard would check this issuer's tokens differently from the library's options (an edgejwt bug: please report it)");
    }
  }
}
