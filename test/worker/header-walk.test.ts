// forward_header_walk_matches_per_name_reference in workerd's Headers (test/worker/header-walk-cases.ts).
import { describe, inject, it } from 'vitest';
import { checkAdjacentRuns, checkHeaderWalk } from './header-walk-cases.js';

const RUNS = Math.min(Number(inject('propertyRuns')) || 200, 1000);
const SEED = Number(inject('propertySeed')) || 20261127;

describe('forward_header_walk_matches_per_name_reference', () => {
  it(
    'names read once, then hop-by-hop and identity stripping: the same headers as the per-name reference ' +
      '(property)',
    () => {
      checkHeaderWalk(Math.min(RUNS * 3, 1000), SEED);
    },
  );

  it(
    'a run of adjacent identity spellings is removed whole (a walk that deleted as it went would skip every ' +
      'other one)',
    () => {
      checkAdjacentRuns();
    },
  );
});
