// The Server-Timing entry the guard adds (observe.ts): written by hand for speed, it must
// read exactly as `toFixed(3)` would for every duration a request can take.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serverTiming } from '../../../../src/worker/stages/observe/observe.js';

describe('serverTiming', () => {
  it('server_timing_reads_as_toFixed: three decimals, as toFixed(3) gives them, for any duration', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: 0, max: 10, noNaN: true }),
          fc.double({ min: 0, max: 1e7, noNaN: true }),
          fc.integer({ min: 0, max: 100_000 }).map((us) => us / 1000),
        ),
        (ms) => {
          expect(serverTiming(ms, 'l1')).toBe(`edgejwt;desc="l1";dur=${ms.toFixed(3)}`);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('edge values: zero, sub-microsecond, whole milliseconds, and what falls back to toFixed', () => {
    for (const ms of [0, -0, 0.0004, 0.0005, 0.001, 0.0999, 1, 12.3456, 999.9995, 1e12, -1, Infinity]) {
      expect(serverTiming(ms, 'verify')).toBe(`edgejwt;desc="verify";dur=${ms.toFixed(3)}`);
    }
  });
});
