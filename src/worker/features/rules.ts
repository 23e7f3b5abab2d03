// Route rules and public paths (the `rules` and `publicPaths` sections) as one feature
// (src/worker/rules.ts). Without it every request needs a token from a configured
// issuer, which is what a config with neither section asks. See registry.ts.

import { checkRules, routeRules } from '../stages/route/rules.js';
import type { RulesFeature } from './registry.js';

/**
 * Rules and public paths (`rules`, `publicPaths`).
 *
 * @example
 * const guard = createGuard(config, { stages: [rules] });
 */
export const rules: RulesFeature = {
  name: 'rules',
  routeRules,
  checkRules,
  build: (b) => {
    b.pieces.rules = rules;
  },
};
