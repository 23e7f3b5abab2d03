// The guard's issuer policies checked by the library's option code (options.ts policyData),
// as data: `edgejwt build-guard` writes them into the compiled entry next to the config
// literal, so an isolate of a compiled guard builds its verifier from them with no option
// code (build.ts, verify-path.ts twoStepVerifierFrom); createGuard and the default Worker
// compute them here at start. Either way the verify is the same code over the same data.

import { algSpec } from '../algorithms.js';
import { policyData, type PolicyData } from '../options.js';
import { addIssuer } from '../verify-path.js';
import type { GuardConfig } from './config.js';
import { configLiteral } from './config-literal.js';
import { issuerSettings, issuersError } from './issuer-settings.js';

/**
 * Each issuer entry's checked policy, in the order of `config.issuers`; a ConfigError
 * naming the setting when the library refuses one (as createVerifier would).
 *
 * @example
 * const policies = checkedPolicies(parseConfig(env.GUARD_CONFIG));
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
 * checkedPolicies as a JavaScript expression, for the entry `edgejwt build-guard` writes.
 *
 * @example
 * `const policies = ${policiesLiteral(config)};`
 */
export function policiesLiteral(config: GuardConfig): string {
  return configLiteral(checkedPolicies(config), 'policies');
}
