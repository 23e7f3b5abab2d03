// A verify policy from checked data (options.ts PolicyData) and a key source: no option is
// checked here (policyData did, or the guard's config parser did before issuerPolicy made
// the data), so the guard and the self-test build their verifier without options.ts's checks.

import type { AlgSpec } from './alg-base.js';
import type { KeySource } from './keys/source.js';
import type { Policy, PolicyData, SpecOf } from './options.js';

/**
 * A checked policy from its data and the key source `sourceOf` makes for its algorithms'
 * specs: no option is checked again (policyData, or the guard's config parser, did that).
 * @example
 * const policy = policyFrom(data, hmacSpec, (specs) => singleKey(secretEntry(secret), specs));
 */
export function policyFrom(data: PolicyData, specOf: SpecOf, sourceOf: (specs: AlgSpec[]) => KeySource): Policy {
  const specs: AlgSpec[] = [];
  for (const alg of data.algorithms) {
    const s = specOf(alg);
    if (s !== undefined) specs.push(s);
  }
  return { specs: new Map(specs.map((s) => [s.alg, s])), source: sourceOf(specs), claims: data.claims };
}
