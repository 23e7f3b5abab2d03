// The `revocation` section's key: its value in a parsed config, for this stage and those that read it
// (revocation-admin, reserved-paths, check-config).

import { sectionKey } from '../../section.js';
import type { RevocationConfig } from './revocation-config.js';

/**
 * The `revocation` section's value (undefined when not set).
 *
 * @example
 * const r = revocationSection.of(b.config);
 */
export const revocationSection = sectionKey<RevocationConfig>('revocation');
