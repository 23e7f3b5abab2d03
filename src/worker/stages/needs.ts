// Which stage each setting needs, in the order the settings are checked: a guard not given a
// stage its config uses fails to start with a ConfigError naming the first such setting
// (start.ts), before anything is built. A built-in stage that a setting switches on adds one
// line here; a stage of your own that no setting names needs none.

import type { GuardConfig, SectionParsers } from '../config-core.js';
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
  // A section set but left unread (its stage was not given) needs its stage as much as a parsed one.
  const set = (k: keyof SectionParsers): boolean => c[k] !== undefined || c.unread?.has(k) === true;
  const remote = usesRemoteKeys(c);
  // A malformed CACHE_KEY is refused first, whether or not a tier uses it; without one the KV tiers are off (build.ts).
  const cacheKey = cacheKeyBytes(env.CACHE_KEY);
  const kvUsed = (c.cache.verifyAlgorithms.size > 0 || (c.cache.jwks && remote)) && cacheKey !== undefined;
  const keyIssuer = c.issuers.findIndex((is) => is.source.kind !== 'secret');
  const rules = c.rules.length > 0 || c.unread?.has('rules') === true;
  const introIssuer = c.issuers.findIndex((is) => is.introspection !== undefined);
  const mtlsIssuer = c.issuers.findIndex((is) => is.mtls !== undefined);
  const steps: [string, string | false | undefined][] = [
    ['kvTiers', kvUsed && 'CACHE_KEY'],
    ['remoteKeys', remote && 'issuers (jwksUrl, discovery)'],
    ['keySets', !hmacOnly(c) && `issuers[${keyIssuer}] (${c.issuers[keyIssuer]?.source.kind})`],
    ['admin', set('admin') && 'admin'],
    ['resource', set('resource') && 'resource'],
    ['serviceOrigin', typeof c.origin === 'object' && 'origin.service'],
    ['tokenSources', !authorizationOnly(c.tokenSources) && 'tokenSources'],
    ['forwardPayload', c.forwardPayload !== undefined && 'forwardPayload'],
    ['originAssertion', set('originAssertion') && 'originAssertion'],
    ['dpop', set('dpop') && 'dpop'],
    ['introspection', introIssuer >= 0 && `issuers[${introIssuer}].introspection`],
    ['mtls', mtlsIssuer >= 0 && `issuers[${mtlsIssuer}].mtls`],
    ['revocation', set('revocation') && 'revocation'],
    ['cors', set('cors') && 'cors'],
    ['rules', rules ? 'rules' : c.publicPaths.length > 0 && 'publicPaths'],
  ];
  return steps.filter((s): s is [string, string] => typeof s[1] === 'string');
}
