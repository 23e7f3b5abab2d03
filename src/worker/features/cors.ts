// CORS (the `cors` section) as one feature: the preflight answer and the CORS headers
// on every answer (src/worker/cors.ts). See registry.ts.

import { corsStage } from '../stages/cors/cors.js';
import type { CorsFeature } from './registry.js';

/**
 * The CORS stage (`cors`).
 *
 * @example
 * const guard = createGuard(config, { stages: [cors] });
 */
export const cors: CorsFeature = {
  name: 'cors',
  corsStage,
  build: (b) => {
    b.pieces.cors = corsStage(b.config.cors!);
  },
};
