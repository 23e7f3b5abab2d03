// createGuard chooses their self-test from the raw config (self-test-needed.ts,
// selfTestFor): HS384 / HS512 known answers when an issuer lists them, both when the config cannot
// be read early, none for RS/PS/ES-only configs. A core whose HMAC over SHA-384/512 accepts any tag
// fails it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { selfTestFor } from '../../src/worker/self-test-needed.js';
import { SUPPORTED_ALGORITHMS, algSpec } from '../../src/algorithms.js';
import { SelfTestFailure, coreFamily, usesWasmCore } from '../../src/worker/self-test.js';
import { miscompileHmac } from '../shared/miscompiled-hmac.js';

afterEach(() => vi.restoreAllMocks());

describe('self_test_for_reads_hmac_hashes_from_config', () => {
  it('a sound core passes for every shape', async () => {
    for (const c of [
      { issuers: [{ algorithms: ['HS512', 'HS384'] }] },
      '{"issuers":[{"algorithms":"HS256"}]}',
      () => ({}),
      { issuers: [{ algorithms: ['RS256'] }] },
    ])
      await expect(selfTestFor(c as never, {})).resolves.toBeUndefined();
  });
  for (const hash of ['SHA-384', 'SHA-512']) {
    it(
      `${hash}: refused for a config naming its algorithm, for one it cannot read, and through ` +
        `env.GUARD_CONFIG; an HS256-only or RS-only config does not run it`,
      async () => {
        miscompileHmac(hash, vi.spyOn as never);
        const alg = hash === 'SHA-384' ? 'HS384' : 'HS512';
        await expect(selfTestFor({ issuers: [{ algorithms: [alg, 'RS256'] }] } as never, {})).rejects.toBeInstanceOf(
          SelfTestFailure,
        );
        await expect(
          selfTestFor(undefined, { GUARD_CONFIG: JSON.stringify({ issuers: [{ algorithms: alg }] }) }),
        ).rejects.toBeInstanceOf(SelfTestFailure);
        await expect(selfTestFor((() => ({})) as never, {})).rejects.toBeInstanceOf(SelfTestFailure);
        await expect(selfTestFor(undefined, { GUARD_CONFIG: 'not json' })).rejects.toBeInstanceOf(SelfTestFailure);
        await expect(selfTestFor({ issuers: [{ algorithms: ['HS256'] }] } as never, {})).resolves.toBeUndefined();
        await expect(
          selfTestFor({ issuers: [{ algorithms: ['RS256', 'ES256'] }] } as never, {}),
        ).resolves.toBeUndefined();
      },
    );
  }
});

describe('self_test_kept_unless_config_names_no_wasm_algorithm', () => {
  const rs = {
    issuers: [
      { issuer: 'a', audience: 'api', algorithms: ['RS256', 'ES256'] },
      { issuer: 'b', audience: 'api', algorithms: 'PS256' },
    ],
  };
  it('under a core whose HS256 accepts any tag: only a config listing RS/PS/ES alone skips the self-test', async () => {
    miscompileHmac('SHA-256', vi.spyOn as never);
    await expect(selfTestFor(rs as never, {})).resolves.toBeUndefined();
    await expect(selfTestFor(JSON.stringify(rs), {})).resolves.toBeUndefined();
    await expect(selfTestFor(undefined, { GUARD_CONFIG: rs })).resolves.toBeUndefined();
    // Anything the early read cannot be sure of keeps the self-test.
    const unsure: unknown[] = [
      undefined,
      '',
      'not json',
      '[]',
      { issuers: [] },
      { issuers: 'x' },
      { issuers: [...rs.issuers, { issuer: 'c', audience: 'api', algorithms: ['HS256'] }] },
      { issuers: [...rs.issuers, { issuer: 'c', audience: 'api', algorithms: 'EdDSA' }] },
      { issuers: [...rs.issuers, { issuer: 'c', audience: 'api', algorithms: ['Ed25519'] }] },
      { issuers: [...rs.issuers, { issuer: 'c', audience: 'api' }] },
      { issuers: [{ algorithms: [] }] },
      { issuers: [{ algorithms: ['RS256', 7] }] },
      { issuers: [null] },
    ];
    for (const raw of unsure) {
      await expect(selfTestFor(undefined, { GUARD_CONFIG: raw }), JSON.stringify(raw)).rejects.toBeInstanceOf(
        SelfTestFailure,
      );
    }
    // A config function is not called early: its guard keeps the self-test.
    await expect(selfTestFor((() => rs) as never, {})).rejects.toBeInstanceOf(SelfTestFailure);
  });
});

describe('core_family_matches_algorithm_table', () => {
  it("an algorithm is the Wasm core's exactly when the table says so, Ed25519 under both names", () => {
    for (const a of SUPPORTED_ALGORITHMS) expect(coreFamily(a) !== undefined, a).toBe(algSpec(a)!.wasm);
    expect(usesWasmCore(['Ed25519'])).toBe(true);
  });
  it('the self-test runs only for configs on the Wasm core', () => {
    expect(usesWasmCore(['RS256', 'ES256', 'PS256'])).toBe(false);
    expect(usesWasmCore(['RS256', 'EdDSA'])).toBe(true);
    expect(usesWasmCore(['HS512'])).toBe(true);
  });
});
