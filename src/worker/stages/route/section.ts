// The `rules` section's key: its value in a parsed config, for this stage and those that read it (route, claims).

import { sectionKey, type SectionValues } from '../../section.js';
import type { RuleConfig } from './rules.js';

/**
 * The `rules` section's value (undefined when not set).
 *
 * @example
 * const r = rulesSection.of(b.config);
 */
export const rulesSection = sectionKey<RuleConfig[]>('rules');

/**
 * The rules of a parsed config (none when `rules` is not set).
 *
 * @example
 * if (rulesOf(config).length > 0) match = rules.routeRules;
 */
export function rulesOf(holder: { readonly sections: SectionValues }): readonly RuleConfig[] {
  return rulesSection.of(holder) ?? [];
}
