// The revocation admin endpoint (`revocation.path`), answered before any other stage but the
// admin one (revocation-admin.ts). Its code comes with the given revocation stage, so a guard
// without `revocation` bundles none of it.

import { answered } from '../../context.js';
import type { GuardStage } from '../../stage.js';
import type { RevocationStage } from '../revocation/index.js';
import { revocationSection } from '../revocation/section.js';

/**
 * The revocation admin stage (always in the chain; it answers only with `revocation` set).
 *
 * @example
 * const stages = [admin, revocationAdmin];
 */
export const revocationAdmin: GuardStage = {
  name: 'revocationAdmin',
  order: 20,
  build: (b) => {
    const r = revocationSection.of(b.config);
    if (r === undefined) return undefined;
    const endpoint = b.use<RevocationStage>('revocation', 'revocation').open(b).admin;
    return { serve: (cx) => (cx.url.pathname === r.path ? endpoint(cx.request).then(answered) : undefined) };
  },
};
