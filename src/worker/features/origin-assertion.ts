// The origin assertion's signer and key set (`originAssertion`) as one feature (see features/registry.ts).

import { OriginAssertion } from '../stages/origin-assertion/origin-assertion.js';
import type { OriginAssertionFeature } from './registry.js';

/**
 * A signed identity for the origin (`originAssertion`).
 *
 * @example
 * const guard = createGuard(config, { stages: [originAssertion] });
 */
export const originAssertion: OriginAssertionFeature = {
  name: 'originAssertion',
  OriginAssertion,
  build: (b) => {
    b.pieces.assertion = OriginAssertion.fromEnv(b.config.originAssertion!, b.env);
  },
};
