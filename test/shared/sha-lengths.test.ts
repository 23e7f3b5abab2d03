// SHA-256/384/512 against the runtime's WebCrypto at every length 0..1024, and
// streamed in parts split around every block boundary; on each compression the
// core has: the looped one an isolate starts with, the unrolled one it moves to
// (assembly/sha2-first-use.ts), and the switch between them inside a message.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getCore } from '../../src/wasm/instance.js';
import { coreHash, coreHashParts } from '../../src/wasm/core-hash.js';
import type { HashName } from '../../src/algorithms.js';
import { seededBytes, toHex } from './bytes.js';

const HASHES: [HashName, number][] = [
  ['SHA-256', 64],
  ['SHA-384', 128],
  ['SHA-512', 128],
];

async function reference(name: HashName, data: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest(name, data as BufferSource)));
}

/** sha2_test_warm_after values: blocks on the looped compression before the unrolled one. */
const PATHS: [string, number][] = [
  ['looped compression only', 0xffffffff],
  ['unrolled compression only', 0],
  ['first 3 blocks looped', 3],
];

describe.each(HASHES.flatMap(([name, block]) => PATHS.map(([path, after]) => [name, path, block, after] as const)))(
  '%s, %s',
  (name, _path, block, after) => {
    const message = seededBytes(0x5eed, 4 * block + 7);
    let previous = 0;
    beforeEach(() => {
      previous = getCore().exports.sha2_test_warm_after(after);
    });
    afterEach(() => {
      getCore().exports.sha2_test_warm_after(previous);
    });

    it('matches WebCrypto at every length 0..1024', async () => {
      const data = seededBytes(1024, 1024);
      for (let len = 0; len <= 1024; len++) {
        const input = data.subarray(0, len);
        expect(toHex(coreHash(getCore(), name, input)), `length ${len}`).toBe(await reference(name, input));
      }
    });

    it('gives the one-shot digest when split in two at every offset', async () => {
      for (let len = 0; len <= message.length; len += 1) {
        const input = message.subarray(0, len);
        const want = await reference(name, input);
        for (let cut = 0; cut <= len; cut++) {
          const got = coreHashParts(getCore(), name, [input.subarray(0, cut), input.subarray(cut)]);
          if (toHex(got) !== want) expect.fail(`length ${len} split at ${cut}`);
        }
      }
    });

    it('gives the one-shot digest when split in three around block boundaries', async () => {
      const want = await reference(name, message);
      const around = (k: number): number[] => [k * block - 1, k * block, k * block + 1].filter((x) => x >= 0);
      const cuts = [0, 1, ...around(1), ...around(2), ...around(3)];
      for (const a of cuts) {
        for (const b of cuts) {
          if (b < a || b > message.length) continue;
          const parts = [message.subarray(0, a), message.subarray(a, b), message.subarray(b)];
          expect(toHex(coreHashParts(getCore(), name, parts)), `cuts ${a},${b}`).toBe(want);
        }
      }
    });
  },
);
