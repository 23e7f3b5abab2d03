// The DPoP stage (`dpop`, RFC 9449) as one feature (see features/registry.ts).

import { dpopChallenge, dpopRefusal } from '../stages/dpop/dpop-answers.js';
import { dpopStageFromEnv } from '../stages/dpop/dpop-stage.js';
import type { DpopFeature } from './registry.js';

/**
 * DPoP proofs, replay and nonces for the issuers that set `dpop`.
 *
 * @example
 * const guard = createGuard(config, { stages: [dpop] });
 */
export const dpop: DpopFeature = {
  name: 'dpop',
  dpopStageFromEnv,
  answers: { dpopChallenge, dpopRefusal },
  build: async (b) => {
    const { config } = b;
    b.pieces.proving.push(await dpopStageFromEnv({ ...config, dpop: config.dpop! }, b.env, { now: b.now, log: b.log }));
    b.pieces.dpopAnswers = dpop.answers;
  },
};
