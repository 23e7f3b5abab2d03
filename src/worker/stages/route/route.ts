// The route stage: which rules a request falls under. Before any rule or public
// path, the method decided on must be the one the origin runs (no override headers);
// a path is public only when every reading of it is; each reading's first matching
// rule applies and the strictest auth mode wins (rules.ts).

import type { AuthOutcome, RequestContext } from '../../context.js';
import { ANONYMOUS } from '../../context.js';
import { headerNames } from '../../header-names.js';
import { hasMethodOverride, METHOD_OVERRIDE_REFUSED } from './method-override.js';
import type { Observer } from '../observe/observe.js';
import { decisionReadings, type PathPolicy } from '../path/path.js';
import * as answer from '../../responses.js';
import { NO_RULE, type RuleConfig, type routeRules as RouteRules } from './rules.js';

/** What the route stage reads of the configuration. */
export interface RouteConfig {
  readonly publicPaths: readonly string[];
  readonly rules: readonly RuleConfig[];
  readonly paths: PathPolicy;
}

/**
 * Continue (undefined, with `cx.matched` and `cx.rule` set), an anonymous pass, or the 400 for a method override.
 * `routeRules`: the rules part's, given when the config sets `rules` or `publicPaths`; without
 * it (neither is set) every request needs a token.
 *
 * @example
 * const stop = routeStage(cx, readings, config, observe, parts.rules?.routeRules);
 * if (stop !== undefined) return stop;
 */
export function routeStage(
  cx: RequestContext,
  canonical: { readings: readonly string[] },
  config: RouteConfig,
  observe: Observer,
  routeRules: typeof RouteRules | undefined,
): AuthOutcome | undefined {
  // The one walk of the client's header names: the forward's scans reuse it (context.ts).
  const names = [...headerNames(cx.request.headers)];
  cx.headerNames = names;
  if (hasMethodOverride(cx.request.headers, cx.url.search, names)) {
    observe.count('rejected:method_override');
    return observe.refuse(cx, answer.badRequest(METHOD_OVERRIDE_REFUSED), { code: 'method_override', status: 400 });
  }
  if (routeRules === undefined) {
    cx.matched = NO_RULE;
    return undefined;
  }
  const matched = routeRules(
    decisionReadings(canonical, cx.url.pathname, config.paths.forward),
    cx.request.method,
    config,
  );
  if (matched === undefined || matched.auth === 'none') return ANONYMOUS;
  cx.matched = matched;
  cx.rule = matched.names.length === 0 ? undefined : matched.names.join(',');
  return undefined;
}

/**
 * Whether the config sets `rules` or `publicPaths` (then the guard needs the rules part).
 *
 * @example
 * usesRules({ rules: [], publicPaths: ['/health'] }); // true
 */
export function usesRules(config: {
  readonly rules: readonly unknown[];
  readonly publicPaths: readonly unknown[];
}): boolean {
  return config.rules.length > 0 || config.publicPaths.length > 0;
}
