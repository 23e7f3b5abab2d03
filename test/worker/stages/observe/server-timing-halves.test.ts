// server_timing_reads_as_toFixed on the values its random doubles almost never draw: a
// duration whose microseconds end in exactly one half once multiplied by 1000 (0.0045 ms,
// 1.0005 ms, ...). toFixed(3) rounds the double's exact decimal value (0.0045 is
// 0.00449999...), Math.round the product (4.5 -> 5): the hand-written entry must defer to
// toFixed there, or half of all such values read 1 us off.
import { describe, expect, it } from 'vitest';
import { serverTiming } from '../../../../src/worker/stages/observe/observe.js';

describe('server_timing_half_microsecond_reads_as_toFixed', () => {
  it('every k + 0.5 microseconds up to 200 ms reads as toFixed(3)', () => {
    const wrong: number[] = [];
    for (let us = 0; us < 200_000; us++) {
      const ms = (us + 0.5) / 1000;
      if (serverTiming(ms, 'l1') !== `edgejwt;desc="l1";dur=${ms.toFixed(3)}`) wrong.push(ms);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('named cases', () => {
    for (const ms of [0.0045, 0.0055, 1.0005, 12.3455, 999.9985])
      expect(serverTiming(ms, 'verify')).toBe(`edgejwt;desc="verify";dur=${ms.toFixed(3)}`);
  });
});
