// The sender-constraint stage, always on, after the stages that prove keys: a token whose
// `cnf` names anything the request did not prove is refused (sender-constraint.ts).

import type { GuardStage } from '../../stage.js';
import { dpopAnswersOf } from '../dpop/answers-of.js';
import { dpopSection } from '../dpop/section.js';
import { senderConstraintStage } from './sender-constraint.js';

/**
 * The sender-constraint stage (always in the chain).
 *
 * @example
 * const stages = [dpop, mtls, senderConstraint];
 */
export const senderConstraint: GuardStage = {
  name: 'senderConstraint',
  order: 150,
  build: (b) => {
    const { config, observe } = b;
    const check = senderConstraintStage(config.realm, dpopSection.of(config)?.algorithms, dpopAnswersOf(b));
    return { identity: (cx, id) => check(cx, id, observe) };
  },
};
