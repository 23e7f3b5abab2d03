// The DPoP stage (`dpop`, RFC 9449), on the verified identity: proofs, replay and nonces
// for the issuers that set `dpop` (dpop-stage.ts). Its answers (dpop-answers.ts) are what
// the credentials, verify and sender-constraint stages give a DPoP client (answers-of.ts).

import { isObject } from '../../config-values.js';
import type { GuardStage } from '../../stage.js';
import { dpopChallenge, dpopRefusal, type DpopAnswers } from './dpop-answers.js';
import { parseDpop, type DpopMode } from './dpop-config.js';
import { dpopSection } from './section.js';
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
  section: {
    key: dpopSection,
    after: 'paths',
    // An issuer's dpop needs the section (parseDpop says so): read even when the issuers have a problem.
    parse: (v, cx) => parseDpop(v, cx.issuers ?? dpopUsers(cx.raw.issuers)),
  },
  answers: { dpopChallenge, dpopRefusal },
  build: async (b) => {
    const { config, parts, observe } = b;
    const d = dpopSection.of(config);
    if (d === undefined) return undefined;
    const check = await dpopStageFromEnv({ ...config, dpop: d }, b.env, { now: parts.now, log: parts.log });
    return { identity: (cx, id) => check(cx, id, observe) };
  },
};

/** Which raw issuer entries set `dpop` (the value is their own check), for when the issuers are not known. */
function dpopUsers(v: unknown): { dpop?: DpopMode }[] {
  return Array.isArray(v) ? v.map((is) => (isObject(is) && is.dpop !== undefined ? { dpop: 'required' } : {})) : [];
}
