// A service-binding origin (`origin: { "service": "API" }`) as a feature
// (src/worker/service-origin.ts). Without it the guard forwards to a URL or the echo. See registry.ts.

import { serviceOrigin as open } from '../stages/forward/service-origin.js';
import type { ServiceOriginFeature } from './registry.js';

/**
 * Forwarding through a service binding (`origin: { service }`).
 *
 * @example
 * const guard = createGuard(config, { stages: [serviceOrigin] });
 */
export const serviceOrigin: ServiceOriginFeature = {
  name: 'serviceOrigin',
  serviceOrigin: open,
  build: (b) => {
    b.pieces.service = open(b.env, (b.config.origin as { service: string }).service);
  },
};
