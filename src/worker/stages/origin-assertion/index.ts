// The origin assertion (`originAssertion`): its public key set served at `jwksPath` without a
// token (this stage), and the signed identity the forward stage adds for the origin
// (origin-assertion.ts; config: origin-assertion-config.ts).

import { answered } from '../../context.js';
import type { GuardStage, StageBuild } from '../../stage.js';
import { OriginAssertion } from './origin-assertion.js';
import { parseOriginAssertion } from './origin-assertion-config.js';
import { originAssertionSection } from './section.js';

/** @example const s: OriginAssertionStage = originAssertion; */
export interface OriginAssertionStage extends GuardStage {
  /** This guard's signer, built once (for this stage and the forward's). */
  open(b: StageBuild): OriginAssertion;
}

/**
 * A signed identity for the origin (`originAssertion`).
 *
 * @example
 * const guard = createGuard(config, { stages: [originAssertion] });
 */
export const originAssertion: OriginAssertionStage = {
  name: 'originAssertion',
  order: 80,
  section: {
    key: originAssertionSection,
    after: 'jwks.maxAgeMs',
    parse: (v, cx) => parseOriginAssertion(v, cx.forwardHeaders),
  },
  open: (b) => b.once('originAssertion', () => OriginAssertion.fromEnv(originAssertionSection.of(b.config)!, b.env)),
  build: (b) => {
    if (originAssertionSection.of(b.config) === undefined) return undefined;
    const assertion = originAssertion.open(b);
    return {
      serve: (cx) => {
        const keys = assertion.keySet(cx.url);
        return keys === undefined ? undefined : answered(keys);
      },
    };
  },
};
