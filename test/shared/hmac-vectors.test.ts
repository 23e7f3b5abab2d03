// RFC 4231 and Wycheproof HMAC-SHA256/384/512 through the Wasm core.
import { describe, expect, it } from 'vitest';
import { getCore } from '../../src/wasm/instance.js';
import { coreHmac } from '../../src/wasm/core-hash.js';
import type { HashName } from '../../src/algorithms.js';
import rfc4231 from '../vectors/rfc/hmac_rfc4231.json';
import wp256 from '../vectors/wycheproof/hmac_sha256_test.json';
import wp384 from '../vectors/wycheproof/hmac_sha384_test.json';
import wp512 from '../vectors/wycheproof/hmac_sha512_test.json';
import { hex, toHex } from './bytes.js';

interface WycheproofHmac {
  testGroups: { tagSize: number; tests: { tcId: number; key: string; msg: string; tag: string; result: string }[] }[];
}

function withKey<T>(hash: HashName, key: Uint8Array, fn: (slot: number) => T): T {
  const core = getCore();
  const slot = core.hmacImport(hash, key);
  try {
    return fn(slot);
  } finally {
    core.hmacDrop(slot);
  }
}

describe('RFC 4231', () => {
  for (const t of rfc4231.tests as {
    test_case: number;
    hash: HashName;
    key: string;
    data: string;
    mac: string;
    truncate_bits?: number;
  }[]) {
    it(`case ${t.test_case} ${t.hash}`, () => {
      withKey(t.hash, hex(t.key), (slot) => {
        const core = getCore();
        const tag = coreHmac(core, slot, hex(t.data));
        // Case 5 lists only the first 128 bits of the tag.
        const shown = t.truncate_bits ? tag.subarray(0, t.truncate_bits / 8) : tag;
        expect(toHex(shown)).toBe(t.mac);
        expect(core.verify('hmac', slot, { message: hex(t.data), signature: hex(t.mac) })).toBe(true);
      });
    });
  }
});

const files: [HashName, WycheproofHmac][] = [
  ['SHA-256', wp256 as WycheproofHmac],
  ['SHA-384', wp384 as WycheproofHmac],
  ['SHA-512', wp512 as WycheproofHmac],
];

describe('Wycheproof HMAC', () => {
  for (const [hash, file] of files) {
    it(`${hash}: every verdict holds`, () => {
      let count = 0;
      for (const group of file.testGroups) {
        for (const t of group.tests) {
          const ok = withKey(hash, hex(t.key), (slot) =>
            getCore().verify('hmac', slot, { message: hex(t.msg), signature: hex(t.tag) }),
          );
          // A tag of the wrong length for the group is invalid by definition.
          const verdict = ok && hex(t.tag).length * 8 === group.tagSize;
          expect.soft(verdict, `tcId ${t.tcId}`).toBe(t.result === 'valid');
          count++;
        }
      }
      expect(count).toBe(174);
    });
  }
});
