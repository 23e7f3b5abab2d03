// The claims stage: the issuer's checks (its `claims`, audience alternatives) and the matched
// rules' (issuers, audience, scopes, claims, step-up) on every verified identity, whichever
// tier verified it (token-checks.ts).

import type { GuardStage } from '../../stage.js';
import type { RulesStage } from '../route/index.js';
import { usesRules } from '../route/route.js';
import { rulesOf } from '../route/section.js';
import { checkClaims } from './token-checks.js';

/**
 * The claims stage (always in the chain): a 401/403 refusal, or the identity goes on.
 *
 * @example
 * const stages = [verify, claims];
 */
export const claims: GuardStage = {
  name: 'claims',
  order: 120,
  build: (b) => {
    const { config, observe, issuers, parts } = b;
    const view = { rules: rulesOf(config), publicPaths: config.publicPaths };
    const setting = view.rules.length > 0 ? 'rules' : 'publicPaths';
    const rules = usesRules(view) ? b.use<RulesStage>('rules', setting) : undefined;
    const scope = {
      config,
      observe,
      issuers,
      log: parts.log,
      checkRules: rules?.checkRules,
      now: parts.now,
    };
    return { identity: (cx, id) => checkClaims(cx, id, scope) };
  },
};
