// The origin assertion's signer and key set (`originAssertion`) as one feature (see features/registry.ts).

import { OriginAssertion } from '../origin-assertion.js';
import type { OriginAssertionFeature } from './registry.js';

/**
 * A signed identity for the origin (`originAssertion`).
 *
 * @example
 * import { createLeanGuard, originAssertion } from 'edgejwt/worker/lean';
 * const guard = createLeanGuard(config, { features: { originAssertion } });
 */
export const originAssertion: OriginAssertionFeature = {
  OriginAssertion,
  build: (b) => {
    b.pieces.assertion = OriginAssertion.fromEnv(b.config.originAssertion!, b.env);
  },
};
