// The verified payload forwarded as one header (`forwardPayload`) as a feature
// (src/worker/payload-header.ts). See registry.ts.

import { payloadHeaderValue } from '../payload-header.js';
import type { ForwardPayloadFeature } from './registry.js';

/**
 * The payload header (`forwardPayload`).
 *
 * @example
 * const parts = await buildParts(config, env, {}, givenFeatures({ forwardPayload }));
 */
export const forwardPayload: ForwardPayloadFeature = {
  payloadHeaderValue,
  build: (b) => {
    b.pieces.payloadHeader = payloadHeaderValue;
  },
};
