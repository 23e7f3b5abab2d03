// The verified payload forwarded as one header (`forwardPayload`) as a feature
// (src/worker/payload-header.ts). See registry.ts.

import { payloadHeaderValue } from '../payload-header.js';
import type { ForwardPayloadFeature } from './registry.js';

/**
 * The payload header (`forwardPayload`).
 *
 * @example
 * import { createLeanGuard, forwardPayload } from 'edgejwt/worker/lean';
 * const guard = createLeanGuard(config, { features: { forwardPayload } });
 */
export const forwardPayload: ForwardPayloadFeature = {
  payloadHeaderValue,
  build: (b) => {
    b.pieces.payloadHeader = payloadHeaderValue;
  },
};
