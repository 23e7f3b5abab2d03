// GUARD_CONFIG read with every section's parser: what `edgejwt check-config` and the tests
// check a config with. A guard reads it with the parsers of the stages it was given
// (config-core.ts, start.ts), so a guard given few stages bundles few parsers.

import { parseConfigWith, type GuardConfig, type SectionParsers } from './config-core.js';
import { parseAdmin } from './stages/admin/admin.js';
import { parseCors } from './stages/cors/cors.js';
import { parseDpop } from './stages/dpop/dpop-config.js';
import { parseOriginAssertion } from './stages/origin-assertion/origin-assertion-config.js';
import { parseRevocation } from './stages/revocation/revocation-config.js';
import { parseRules } from './stages/route/rules.js';
import { parseResource } from '../resource/config.js';

export * from './config-core.js';
/** Every setting name parseConfig accepts, per object (generated from ./config-description.ts). */
export { CONFIG_KEYS } from './config-keys.js';

/** Every optional section's parser. */
const ALL_SECTIONS: SectionParsers = {
  admin: parseAdmin,
  cors: parseCors,
  rules: parseRules,
  originAssertion: parseOriginAssertion,
  dpop: parseDpop,
  revocation: parseRevocation,
  resource: parseResource,
};

/**
 * Parse and check GUARD_CONFIG, every section; throws a ConfigError naming the first bad setting (a
 * ConfigErrors when there are more: config-problems.ts, every one of them).
 *
 * @example
 * const config = parseConfig('{"issuers":[{"issuer":"https://id.example.com","audience":"api","algorithms":["RS256"],"jwksUrl":"https://id.example.com/jwks"}]}');
 */
export function parseConfig(raw: unknown): GuardConfig {
  return parseConfigWith(raw, ALL_SECTIONS);
}
