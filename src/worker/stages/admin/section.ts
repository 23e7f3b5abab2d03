// The `admin` section's key: its value in a parsed config, for this stage and those that read it (reserved-paths, the
// revocation section's check).

import { sectionKey } from '../../section.js';
import type { AdminConfig } from './admin.js';

/**
 * The `admin` section's value (undefined when not set).
 *
 * @example
 * const a = adminSection.of(b.config);
 */
export const adminSection = sectionKey<AdminConfig>('admin');
