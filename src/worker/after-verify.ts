// Stages that run on a verified identity, after the claim checks and before the
// forward: the sender constraint (DPoP, mTLS) and revocation. build.ts adds one
// only when its config section is set, so a guard without them pays one length test.

import type { AuthOutcome, RequestContext } from './context.js';
import type { Observer } from './stages/observe/observe.js';

/** A verified, non-anonymous outcome (what the stages after the verify look at). */
export type Identity = Extract<AuthOutcome, { ok: true; anonymous: false }>;

/**
 * One stage after the verify: undefined continues, an outcome stops the chain
 * (a refusal, or the identity with something added for the forward).
 *
 * @example
 * const revoked: AfterVerifyStage = (cx, id, observe) =>
 *   isRevoked(id.payload) ? observe.refuse(cx, answer.invalidToken('edgejwt', 'The token was revoked'), { code: 'revoked', status: 401 }) : undefined;
 */
export type AfterVerifyStage = (cx: RequestContext, identity: Identity, observe: Observer) => AuthOutcome | undefined | Promise<AuthOutcome | undefined>;

/**
 * Run the stages in order on an outcome of the claim checks; a refusal or an
 * anonymous pass goes through untouched. No promise when no stage waited.
 *
 * @example
 * return afterVerify(cx, checkVerified(cx, verified, scope), parts.afterVerify, observe);
 */
export function afterVerify(cx: RequestContext, outcome: AuthOutcome, stages: readonly AfterVerifyStage[], observe: Observer, from = 0): AuthOutcome | Promise<AuthOutcome> {
  if (!outcome.ok || outcome.anonymous) return outcome;
  for (let i = from; i < stages.length; i++) {
    const r = stages[i]!(cx, outcome, observe);
    if (r instanceof Promise) return r.then((done) => (done === undefined ? afterVerify(cx, outcome, stages, observe, i + 1) : done.ok && !done.anonymous ? afterVerify(cx, done, stages, observe, i + 1) : done));
    if (r !== undefined) {
      if (!r.ok || r.anonymous) return r;
      outcome = r;
    }
  }
  return outcome;
}
