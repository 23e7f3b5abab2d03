// The admin endpoint (the `admin` section: the counters as JSON) as one feature
// (src/worker/admin.ts). See registry.ts.

import { adminEndpoint } from '../stages/admin/admin.js';
import { reservedCheck } from '../stages/path/reserved-paths.js';
import type { AdminFeature } from './registry.js';

/**
 * The admin endpoint (`admin`).
 *
 * @example
 * const guard = createGuard(config, { stages: [admin] });
 */
export const admin: AdminFeature = {
  name: 'admin',
  adminEndpoint,
  reservedCheck,
  build: (b) => {
    b.pieces.admin = adminEndpoint(b.env, b.config.admin!, b.counters);
    b.pieces.reserved = reservedCheck(b.config);
  },
};
