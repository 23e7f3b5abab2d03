// The observation stage: every request past the guard's own endpoints is counted here; the
// outcomes are counted, logged (rejection-log.ts) and reported (Analytics Engine,
// Server-Timing) through the one Observer (observe.ts) every stage is built with.

import type { GuardStage } from '../../stage.js';

/**
 * The observation stage (always in the chain).
 *
 * @example
 * const stages = [admin, observe, cors];
 */
export const observe: GuardStage = {
  name: 'observe',
  order: 40,
  build: (b) => {
    const counters = b.parts.counters;
    return {
      serve: () => {
        counters.inc('requests');
        return undefined;
      },
    };
  },
};
