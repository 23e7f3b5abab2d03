// The admin stage (`admin`): the isolate's counters as JSON at `admin.path`, for a request
// with the admin secret (admin.ts); answered before any other stage.

import { answered } from '../../context.js';
import type { ReservingStage } from '../path/index.js';
import { reservedCheck } from '../path/reserved-paths.js';
import { adminEndpoint, parseAdmin } from './admin.js';
import { adminSection } from './section.js';

/**
 * The admin endpoint (`admin`).
 *
 * @example
 * const guard = createGuard(config, { stages: [admin] });
 */
export const admin: ReservingStage = {
  name: 'admin',
  reservedCheck,
  order: 10,
  section: { key: adminSection, after: 'jwks', parse: parseAdmin },
  build: (b) => {
    const a = adminSection.of(b.config);
    if (a === undefined) return undefined;
    const endpoint = adminEndpoint(b.env, a, b.parts.counters);
    return { serve: (cx) => (cx.url.pathname === a.path ? endpoint(cx.request).then(answered) : undefined) };
  },
};
