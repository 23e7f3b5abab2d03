// The mTLS stage (`issuers[].mtls`, RFC 8705), on the verified identity: the token's
// cnf["x5t#S256"] against the client certificate Cloudflare verified (mtls-stage.ts).

import type { GuardStage } from '../../stage.js';
import { mtlsStage } from './mtls-stage.js';

/**
 * Certificate-bound tokens for the issuers that set `mtls`.
 *
 * @example
 * const guard = createGuard(config, { stages: [mtls] });
 */
export const mtls: GuardStage = {
  name: 'mtls',
  order: 140,
  build: (b) => {
    const { config, observe } = b;
    if (!config.issuers.some((is) => is.mtls !== undefined)) return undefined;
    const check = mtlsStage(config.issuers, config.realm);
    return { identity: (cx, id) => check(cx, id, observe) };
  },
};
