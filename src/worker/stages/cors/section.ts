// The `cors` section's key: its value in a parsed config, for this stage and those that read it (only this stage).

import { sectionKey } from '../../section.js';
import type { CorsConfig } from './cors.js';

/**
 * The `cors` section's value (undefined when not set).
 *
 * @example
 * const c = corsSection.of(b.config);
 */
export const corsSection = sectionKey<CorsConfig>('cors');
