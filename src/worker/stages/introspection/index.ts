// Opaque tokens introspected (`issuers[].introspection`, RFC 7662): the verify stage asks the
// one issuer's endpoint about a token that is no JWT instead of opening it
// (introspection-stage.ts), and its refusals (inactive 401, endpoint fault 503) are the
// verify stage's. A part of the verify stage: it has no hooks of its own.

import type { GuardStage, StageBuild } from '../../stage.js';
import { introspectionStage, type IntrospectionStage } from './introspection-stage.js';

/** @example const s: IntrospectionStageValue = introspection; */
export interface IntrospectionStageValue extends GuardStage {
  /** This guard's introspection (client, caches, answers), built once for the verify stage. */
  open(b: StageBuild): IntrospectionStage | undefined;
}

/**
 * Opaque tokens asked about at the one issuer that sets `introspection`.
 *
 * @example
 * const guard = createGuard(config, { stages: [remoteKeys, keySets, introspection] });
 */
export const introspection: IntrospectionStageValue = {
  name: 'introspection',
  order: 118,
  build: () => undefined,
  open: (b) => b.once('introspection', () => introspectionStage(b.config, b.env, b.parts)),
};
