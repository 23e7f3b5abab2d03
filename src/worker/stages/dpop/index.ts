// The DPoP stage (`dpop`, RFC 9449), on the verified identity: proofs, replay and nonces
// for the issuers that set `dpop` (dpop-stage.ts). Its answers (dpop-answers.ts) are what
// the credentials, verify and sender-constraint stages give a DPoP client (answers-of.ts).

import type { GuardStage } from '../../stage.js';
import { dpopChallenge, dpopRefusal, type DpopAnswers } from './dpop-answers.js';
import { parseDpop } from './dpop-config.js';
import { dpopStageFromEnv } from './dpop-stage.js';

/** @example const s: DpopStage = dpop; */
export interface DpopStage extends GuardStage {
  /** The DPoP challenge and refusal the core stages give (credentials, verify, sender-constraint). */
  answers: DpopAnswers;
}

/**
 * DPoP proofs, replay and nonces for the issuers that set `dpop`.
 *
 * @example
 * const guard = createGuard(config, { stages: [dpop] });
 */
export const dpop: DpopStage = {
  name: 'dpop',
  order: 130,
  sections: { dpop: parseDpop },
  answers: { dpopChallenge, dpopRefusal },
  build: async (b) => {
    const { config, parts, observe } = b;
    if (config.dpop === undefined) return undefined;
    const check = await dpopStageFromEnv({ ...config, dpop: config.dpop }, b.env, { now: parts.now, log: parts.log });
    return { identity: (cx, id) => check(cx, id, observe) };
  },
};
