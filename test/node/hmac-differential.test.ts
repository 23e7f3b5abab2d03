// 10,000+ random keys and messages: the Wasm HMAC must equal node:crypto's, and
// verify must accept exactly node:crypto's tag.
import { describe, expect, it } from 'vitest';
import { createHmac, randomBytes } from 'node:crypto';
import { getCore } from '../../src/wasm/instance.js';
import { coreHmac } from '../../src/wasm/core-hash.js';
import type { HashName } from '../../src/algorithms.js';

const CASES: [HashName, string][] = [
  ['SHA-256', 'sha256'],
  ['SHA-384', 'sha384'],
  ['SHA-512', 'sha512'],
];

describe.each(CASES)('%s against node:crypto', (name, nodeName) => {
  it('agrees on 3,400 random keys (0..300 bytes) and messages (0..2048 bytes)', () => {
    const core = getCore();
    for (let i = 0; i < 3400; i++) {
      const key = randomBytes(Math.floor(Math.random() * 301));
      const message = randomBytes(Math.floor(Math.random() * 2049));
      const want = createHmac(nodeName, key).update(message).digest();
      const slot = core.hmacImport(name, key);
      try {
        const got = Buffer.from(coreHmac(core, slot, message));
        if (!got.equals(want)) expect.fail(`key ${key.length} B, message ${message.length} B`);
        if (!core.verify('hmac', slot, { message, signature: want })) expect.fail('verify rejected the reference tag');
        const bad = Buffer.from(want);
        bad[i % bad.length]! ^= 1 << (i % 8);
        if (core.verify('hmac', slot, { message, signature: bad })) expect.fail('verify accepted a flipped tag');
      } finally {
        core.hmacDrop(slot);
      }
    }
  });

  it('agrees when the message is a string encoded straight into Wasm memory', () => {
    const core = getCore();
    const key = randomBytes(64);
    const slot = core.hmacImport(name, key);
    for (let len = 0; len < 700; len++) {
      const text = randomBytes(len).toString('base64url').slice(0, len);
      const want = createHmac(nodeName, key).update(text).digest();
      expect(Buffer.from(coreHmac(core, slot, text)).equals(want)).toBe(true);
    }
    core.hmacDrop(slot);
  });
});
