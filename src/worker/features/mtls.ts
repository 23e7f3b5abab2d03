// The mTLS stage (`issuers[].mtls`, RFC 8705) as one feature (see features/registry.ts).

import { mtlsStage } from '../stages/mtls/mtls-stage.js';
import type { MtlsFeature } from './registry.js';

/**
 * Certificate-bound tokens for the issuers that set `mtls`.
 *
 * @example
 * const guard = createGuard(config, { stages: [mtls] });
 */
export const mtls: MtlsFeature = {
  name: 'mtls',
  mtlsStage,
  build: (b) => {
    b.pieces.proving.push(mtlsStage(b.config.issuers, b.config.realm));
  },
};
