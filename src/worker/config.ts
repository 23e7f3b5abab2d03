// GUARD_CONFIG read with every stage's section (defaultStages): what `edgejwt check-config` and
// the tests check a config with. A guard reads it with the sections of the stages it was given
// (config-core.ts, start.ts), so a guard given few stages bundles few parsers.

import { parseConfigWith, type GuardConfig } from './config-core.js';
import { defaultStages } from './stages/index.js';

export * from './config-core.js';
/** Every setting name parseConfig accepts, per object (generated from ./config-description.ts). */
export { CONFIG_KEYS } from './config-keys.js';

/**
 * Parse and check GUARD_CONFIG, every section; throws a ConfigError naming the first bad setting (a
 * ConfigErrors when there are more: config-problems.ts, every one of them).
 *
 * @example
 * const config = parseConfig(
 *   '{"issuers":[{"issuer":"https://id.example.com","audience":"api",' +
 *     '"algorithms":["RS256"],"jwksUrl":"https://id.example.com/jwks"}]}',
 * );
 */
export function parseConfig(raw: unknown): GuardConfig {
  return parseConfigWith(raw, defaultStages);
}
