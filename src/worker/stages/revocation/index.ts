// The revocation stage (`revocation`), last on the verified identity: the payload against this
// isolate's copy of the revocation list (revocation-stage.ts; 401 revoked, 503 when the list
// cannot be known current). Its admin endpoint is answered by the revocation-admin stage.

import type { StageBuild } from '../../stage.js';
import type { ReservingStage } from '../path/index.js';
import { reservedCheck } from '../path/reserved-paths.js';
import { adminSection } from '../admin/section.js';
import { parseRevocation } from './revocation-config.js';
import { revocationSection } from './section.js';
import { buildRevocation } from './revocation-stage.js';

/** @example const s: RevocationStage = revocation; */
export interface RevocationStage extends ReservingStage {
  /** This guard's view, check and admin endpoint, built once (for this stage and revocation-admin's). */
  open(b: StageBuild): ReturnType<typeof buildRevocation>;
}

/**
 * Revoked tokens refused at the edge, and the endpoint that revokes them.
 *
 * @example
 * const guard = createGuard(config, { stages: [revocation] });
 */
export const revocation: RevocationStage = {
  name: 'revocation',
  order: 160,
  reservedCheck,
  section: {
    key: revocationSection,
    after: 'paths',
    parse: (v, cx) => parseRevocation(v, adminSection.of(cx)?.path),
  },
  open: (b) => {
    const { config, env, parts } = b;
    return b.once('revocation', () =>
      buildRevocation(revocationSection.of(config)!, env, parts.now, config.realm, config),
    );
  },
  build: (b) => {
    if (revocationSection.of(b.config) === undefined) return undefined;
    const check = revocation.open(b).stage;
    const observe = b.observe;
    return { identity: (cx, id) => check(cx, id, observe) };
  },
};
