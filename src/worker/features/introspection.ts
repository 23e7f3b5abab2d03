// Opaque tokens introspected (`issuers[].introspection`, RFC 7662) as one feature
// (src/worker/introspection-stage.ts). See registry.ts.

import { introspectionStage } from '../introspection-stage.js';
import type { IntrospectionFeature } from './registry.js';

/**
 * Opaque tokens asked about at the one issuer that sets `introspection`.
 *
 * @example
 * const guard = createGuard(config, { stages: [remoteKeys, keySets, introspection] });
 */
export const introspection: IntrospectionFeature = {
  name: 'introspection',
  introspectionStage,
  build: (b) => {
    b.pieces.introspection = introspectionStage(b.config, b.env, b.fetch, b.now);
  },
};
