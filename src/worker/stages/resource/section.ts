// The `resource` section's key: its value in a parsed config, for this stage and those that read it (the issuers'
// default audience, reserved-paths, check-config).

import { sectionKey } from '../../section.js';
import type { ResourceSettings } from '../../../resource/metadata.js';

/**
 * The `resource` section's value (undefined when not set).
 *
 * @example
 * const r = resourceSection.of(b.config);
 */
export const resourceSection = sectionKey<ResourceSettings>('resource');
