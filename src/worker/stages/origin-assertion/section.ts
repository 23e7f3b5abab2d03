// The `originAssertion` section's key: its value in a parsed config, for this stage and those that read it (forward).

import { sectionKey } from '../../section.js';
import type { OriginAssertionConfig } from './origin-assertion-config.js';

/**
 * The `originAssertion` section's value (undefined when not set).
 *
 * @example
 * const oa = originAssertionSection.of(b.config);
 */
export const originAssertionSection = sectionKey<OriginAssertionConfig>('originAssertion');
