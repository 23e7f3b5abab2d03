// The route stage: a method override refused, then which rules apply to the request's path
// readings (route.ts); a public path or `auth: none` passes anonymously. Its given part,
// `rules` (rules.ts: the `rules` and `publicPaths` sections' matching and the claims stage's
// checks): without it every request needs a token from a configured issuer.

import type { GuardStage } from '../../stage.js';
import { checkRules, parseRules, routeRules } from './rules.js';
import { routeStage, usesRules } from './route.js';
import { rulesOf, rulesSection } from './section.js';

/** @example const s: RulesStage = rules; */
export interface RulesStage extends GuardStage {
  routeRules: typeof routeRules;
  checkRules: typeof checkRules;
}

/**
 * Rules and public paths (`rules`, `publicPaths`).
 *
 * @example
 * const guard = createGuard(config, { stages: [rules] });
 */
export const rules: RulesStage = {
  name: 'rules',
  order: 95,
  section: {
    key: rulesSection,
    after: 'publicPaths',
    parse: (v, cx) => parseRules(v, cx.issuers && new Set(cx.issuers.flatMap((is) => is.issuer))),
  },
  build: () => undefined,
  routeRules,
  checkRules,
};

/**
 * The route stage (always in the chain).
 *
 * @example
 * const stages = [path, route];
 */
export const route: GuardStage = {
  name: 'route',
  order: 90,
  build: (b) => {
    const { config, observe } = b;
    const view = { publicPaths: config.publicPaths, rules: rulesOf(config), paths: config.paths };
    const setting = view.rules.length > 0 ? 'rules' : 'publicPaths';
    const match = usesRules(view) ? b.use<RulesStage>('rules', setting).routeRules : undefined;
    return { request: (cx) => routeStage(cx, cx.path!, view, observe, match) };
  },
};
