// Workers before the `enable_weak_ref` compatibility flag have no FinalizationRegistry.
// The library must load and verify there (slots then come back only through drop()):
// the module graph is imported afresh with the global removed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHmac } from 'node:crypto';

const saved = globalThis.FinalizationRegistry;

afterEach(() => {
  globalThis.FinalizationRegistry = saved;
  vi.resetModules();
});

describe('without FinalizationRegistry', () => {
  it('loads, verifies HS256 and EdDSA keys, and frees slots on drop', async () => {
    // @ts-expect-error -- simulating a runtime without the global
    delete globalThis.FinalizationRegistry;
    vi.resetModules();
    const { createVerifier } = await import('../../src/index.js');
    const { importHmacKey } = await import('../../src/wasm/keys.js');
    const secret = Buffer.alloc(32, 9);
    const b64u = (s: string | Buffer) => Buffer.from(s).toString('base64url');
    const input = `${b64u('{"alg":"HS256"}')}.${b64u(JSON.stringify({ sub: 'x', exp: 2_000_000_000 }))}`;
    const token = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
    const v = createVerifier({
      algorithms: ['HS256'],
      key: new Uint8Array(secret),
      cache: false,
      currentDate: new Date(1_900_000_000_000),
    });
    expect(v.verifySync(token).payload.sub).toBe('x');
    // Many imports and drops: every slot comes back through drop().
    for (let i = 0; i < 200; i++) importHmacKey(new Uint8Array(32).fill(i), 'HS256').drop();
    expect(typeof globalThis.FinalizationRegistry).toBe('undefined');
  });
});
