// The sender-constraint check, always on: after the DPoP and mTLS stages (when
// configured), a token whose `cnf` names a key the request did not prove is
// refused, whatever the config says. Without it a DPoP- or certificate-bound token
// would pass as a plain bearer token on a route or issuer that checks no proof
// (RFC 9449 §7.2, RFC 8705 §3). The rule itself is src/bearer/confirmation.ts.

import { unprovenConfirmation } from '../../../bearer/confirmation.js';
import type { AfterVerifyStage } from '../../stage.js';
import { DESCRIPTIONS } from '../../../bearer/challenge.js';
import type { DpopAnswers } from '../dpop/dpop-answers.js';
import { withTiming } from '../observe/observe.js';
import * as answer from '../../responses.js';

/**
 * The stage; `dpopAlgorithms` (when DPoP is configured, with the dpop stage's answers) adds a
 * DPoP challenge to the refusal of a DPoP-bound token.
 *
 * @example
 * const check = senderConstraintStage(config.realm, config.dpop?.algorithms, dpop?.answers);
 */
export function senderConstraintStage(
  realm: string,
  dpopAlgorithms: readonly string[] | undefined,
  dpop?: DpopAnswers,
): AfterVerifyStage {
  return (cx, id, observe) => {
    const claim = unprovenConfirmation(id.payload, cx.proven);
    if (claim === undefined) return undefined;
    observe.count('rejected:unproven_confirmation');
    const res =
      claim === 'cnf.jkt' && dpopAlgorithms !== undefined
        ? dpop!.dpopRefusal(realm, dpopAlgorithms, 'invalid_token', DESCRIPTIONS.unproven_confirmation)
        : answer.invalidToken(realm, DESCRIPTIONS.unproven_confirmation);
    return observe.refuse(cx, withTiming(res, id.timing), {
      code: 'unproven_confirmation',
      status: 401,
      claim,
      iss: id.issuer,
    });
  };
}
