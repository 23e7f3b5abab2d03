// The verified payload forwarded as one header (`forwardPayload`) as a feature
// (src/worker/payload-header.ts). See registry.ts.

import { payloadHeaderValue } from '../stages/forward/payload-header.js';
import type { ForwardPayloadFeature } from './registry.js';

/**
 * The payload header (`forwardPayload`).
 *
 * @example
 * const guard = createGuard(config, { stages: [forwardPayload] });
 */
export const forwardPayload: ForwardPayloadFeature = {
  name: 'forwardPayload',
  payloadHeaderValue,
  build: (b) => {
    b.pieces.payloadHeader = payloadHeaderValue;
  },
};
