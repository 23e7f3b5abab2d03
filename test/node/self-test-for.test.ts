// createGuard and createLeanGuard choose their self-test from the raw config (self-test-needed.ts,
// selfTestFor): HS384 / HS512 known answers when an issuer lists them, both when the config cannot
// be read early, none for RS/PS/ES-only configs. A core whose HMAC over SHA-384/512 accepts any tag
// fails it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { selfTestFor } from '../../src/worker/self-test-needed.js';
import { SelfTestFailure } from '../../src/worker/self-test.js';
import { miscompileHmac } from '../shared/miscompiled-hmac.js';

afterEach(() => vi.restoreAllMocks());

describe('self_test_for_reads_hmac_hashes_from_config', () => {
  it('a sound core passes for every shape', async () => {
    for (const c of [{ issuers: [{ algorithms: ['HS512', 'HS384'] }] }, '{"issuers":[{"algorithms":"HS256"}]}', () => ({}), { issuers: [{ algorithms: ['RS256'] }] }]) await expect(selfTestFor(c as never, {})).resolves.toBeUndefined();
  });
  for (const hash of ['SHA-384', 'SHA-512']) {
    it(`${hash}: refused for a config naming its algorithm, for one it cannot read, and through env.GUARD_CONFIG; an HS256-only or RS-only config does not run it`, async () => {
      miscompileHmac(hash, vi.spyOn as never);
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
