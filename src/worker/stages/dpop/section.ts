// The `dpop` section's key: its value in a parsed config, for this stage and those that read it (credentials, claims,
// introspection, sender-constraint, forward, check-config).

import { sectionKey } from '../../section.js';
import type { DpopConfig } from './dpop-config.js';

/**
 * The `dpop` section's value (undefined when not set).
 *
 * @example
 * const d = dpopSection.of(b.config);
 */
export const dpopSection = sectionKey<DpopConfig>('dpop');
