// Which stage each setting needs, in the order the settings are checked: a guard not given a
// stage its config uses fails to start with a ConfigError naming the first such setting
// (start.ts), before anything is built. An optional section needs the stage of its name
// (config-core.ts: `sectionsSet`); a built-in stage that a core setting switches on adds one
// line here; a stage of your own that no setting names needs none.

import type { GuardConfig } from '../config-core.js';
import { cacheKeyBytes } from '../cache-key.js';
import { authorizationOnly } from './credentials/authorization-token.js';
import { hmacOnly, usesRemoteKeys } from './verify/uses.js';

/**
 * The stages `config` uses that not every guard runs, each with the setting that needs it, in check order.
 *
 * @example
 * neededStages(parseConfig({ ...raw, cors: { allowOrigins: ['https://app.example'] } }), env); // [['cors', 'cors']]
 */
export function neededStages(
  config: GuardConfig,
  env: { readonly [binding: string]: unknown },
): [name: string, setting: string][] {
  const c = config;
  const remote = usesRemoteKeys(c);
  // A malformed CACHE_KEY is refused first, whether or not a tier uses it; without one the KV tiers are off (build.ts).
  const cacheKey = cacheKeyBytes(env.CACHE_KEY);
  const kvUsed = (c.cache.verifyAlgorithms.size > 0 || (c.cache.jwks && remote)) && cacheKey !== undefined;
  const keyIssuer = c.issuers.findIndex((is) => is.source.kind !== 'secret');
  const introIssuer = c.issuers.findIndex((is) => is.introspection !== undefined);
  const mtlsIssuer = c.issuers.findIndex((is) => is.mtls !== undefined);
  const steps: [string, string | false | undefined][] = [
    ['kvTiers', kvUsed && 'CACHE_KEY'],
    ['remoteKeys', remote && 'issuers (jwksUrl, discovery)'],
    ['keySets', !hmacOnly(c) && `issuers[${keyIssuer}] (${c.issuers[keyIssuer]?.source.kind})`],
    // Every optional section set (admin, cors, dpop, ...), in the order GUARD_CONFIG writes them.
    ...c.sectionsSet.map((key): [string, string] => [key, key]),
    ['serviceOrigin', typeof c.origin === 'object' && 'origin.service'],
    ['tokenSources', !authorizationOnly(c.tokenSources) && 'tokenSources'],
    ['forwardPayload', c.forwardPayload !== undefined && 'forwardPayload'],
    // An issuer's dpop without the section is the section's problem (dpop's parser names it), so it is named so.
    ['dpop', c.issuers.some((is) => is.dpop !== undefined) && 'dpop'],
    ['introspection', introIssuer >= 0 && `issuers[${introIssuer}].introspection`],
    ['mtls', mtlsIssuer >= 0 && `issuers[${mtlsIssuer}].mtls`],
    ['rules', c.publicPaths.length > 0 && 'publicPaths'],
  ];
  // Each stage once, for the first setting that needs it (dpop: its section, or an issuer's dpop).
  const needed: [string, string][] = [];
  for (const [name, setting] of steps)
    if (typeof setting === 'string' && !needed.some(([n]) => n === name)) needed.push([name, setting]);
  return needed;
}
