// createGuard and createLeanGuard choose their self-test from the raw config (self-test-needed.ts,
// selfTestFor): HS384 / HS512 known answers when an issuer lists them, both when the config cannot
// be read early, none for RS/PS/ES-only configs. A core whose HMAC over SHA-384/512 accepts any tag
// fails it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Core } from '../../src/wasm/core.js';
import { selfTestFor } from '../../src/worker/self-test-needed.js';
import { SelfTestFailure } from '../../src/worker/self-test.js';

afterEach(() => vi.restoreAllMocks());

/** From now on HMAC over `hash` accepts every tag (the other hashes stay sound). */
function miscompile(hash: string): void {
  const slotHash = new Map<number, string>();
  const hmacImport = Core.prototype.hmacImport;
  vi.spyOn(Core.prototype, 'hmacImport').mockImplementation(function (this: Core, name, key) {
    const slot = hmacImport.call(this, name, key);
    slotHash.set(slot, name);
    return slot;
  });
  const verify = Core.prototype.verify;
  vi.spyOn(Core.prototype, 'verify').mockImplementation(function (this: Core, ...args: Parameters<Core['verify']>) {
    return (args[0] === 'hmac' && slotHash.get(args[1]) === hash) || verify.apply(this, args);
  });
}

describe('self_test_for_reads_hmac_hashes_from_config', () => {
  it('a sound core passes for every shape', async () => {
    for (const c of [{ issuers: [{ algorithms: ['HS512', 'HS384'] }] }, '{"issuers":[{"algorithms":"HS256"}]}', () => ({}), { issuers: [{ algorithms: ['RS256'] }] }]) await expect(selfTestFor(c as never, {})).resolves.toBeUndefined();
  });
  for (const hash of ['SHA-384', 'SHA-512']) {
    it(`${hash}: refused for a config naming its algorithm, for one it cannot read, and through env.GUARD_CONFIG; an HS256-only or RS-only config does not run it`, async () => {
      miscompile(hash);
      const alg = hash === 'SHA-384' ? 'HS384' : 'HS512';
      await expect(selfTestFor({ issuers: [{ algorithms: [alg, 'RS256'] }] } as never, {})).rejects.toBeInstanceOf(SelfTestFailure);
      await expect(selfTestFor(undefined, { GUARD_CONFIG: JSON.stringify({ issuers: [{ algorithms: alg }] }) })).rejects.toBeInstanceOf(SelfTestFailure);
      await expect(selfTestFor((() => ({})) as never, {})).rejects.toBeInstanceOf(SelfTestFailure);
      await expect(selfTestFor(undefined, { GUARD_CONFIG: 'not json' })).rejects.toBeInstanceOf(SelfTestFailure);
      await expect(selfTestFor({ issuers: [{ algorithms: ['HS256'] }] } as never, {})).resolves.toBeUndefined();
      await expect(selfTestFor({ issuers: [{ algorithms: ['RS256', 'ES256'] }] } as never, {})).resolves.toBeUndefined();
    });
  }
});
