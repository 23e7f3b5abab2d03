// forward_header_walk_matches_per_name_reference in Node's Headers (undici), where the
// keys() iterator is live: code that deleted while walking would skip names here, not in
// workerd (whose iterator walks a copy). Cases in test/worker/header-walk-cases.ts.
import { describe, it } from 'vitest';
import { checkAdjacentRuns, checkHeaderWalk } from '../worker/header-walk-cases.js';

describe('forward_header_walk_matches_per_name_reference', () => {
  it(
    'names read once, then hop-by-hop and identity stripping: the same headers as the per-name reference ' +
      '(property, Node Headers)',
    () => {
      checkHeaderWalk(
        Number(process.env.EDGEJWT_PROPERTY_RUNS) || 600,
        Number(process.env.EDGEJWT_PROPERTY_SEED) || 20261127,
      );
    },
  );

  it('a run of adjacent identity spellings is removed whole (Node Headers)', () => {
    checkAdjacentRuns();
  });
});
