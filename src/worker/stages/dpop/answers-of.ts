// The DPoP answers (challenge, refusal) the stages before and after the verify give when
// `dpop` is configured, taken from the given dpop stage so a guard without DPoP bundles neither.

import type { StageBuild } from '../../stage.js';
import type { DpopAnswers } from './dpop-answers.js';
import type { DpopStage } from './index.js';
import { dpopSection } from './section.js';

/**
 * The dpop stage's answers when the config sets `dpop` (a ConfigError naming it when that stage was not given).
 *
 * @example
 * const dpop = dpopAnswersOf(b); // undefined without `dpop`
 */
export function dpopAnswersOf(b: Pick<StageBuild, 'config' | 'use'>): DpopAnswers | undefined {
  return dpopSection.of(b.config) === undefined ? undefined : b.use<DpopStage>('dpop', 'dpop').answers;
}
