// A compiled entry holds its config and its issuers' checked policies as two literals
// (src/cli/guard-entry.ts). buildParts pairs the i-th policy with the i-th issuer's key: a
// policy literal that no longer says what the config says must fail closed: never lend one
// issuer's key to another's tokens (issuer names, audience, algorithms), never check a token
// more loosely than the config asks (exp, clock tolerance, maxTokenAge, typ, profile).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PolicyData } from '../../src/options.js';
import { compiledWorker, type CompiledConfig } from '../../src/worker/compiled.js';
import { generate, type KeyPair } from '../shared/jwt-mint.js';
import { compileEntry } from './compile-entry.js';
import { AUD, HS_ISS, TestCtx, bearer, demoKeys, token, type Keys } from './harness.js';

const OTHER = 'https://other.example.com';
const b64u = (b: Uint8Array): string => btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const req = (t: string): Request => new Request('https://api.example.com/orders', bearer(t));

let k: Keys;
let other: KeyPair;
beforeAll(async () => {
  k = await demoKeys();
  other = await generate('HS256');
});
afterEach(() => vi.restoreAllMocks());

const RAW = {
  issuers: [
    { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' },
    { issuer: OTHER, audience: 'other-api', algorithms: ['HS256'], secretBinding: 'OTHER_KEY' },
  ],
  origin: 'builtin:echo',
  cache: { jwks: false },
};

describe('compiled policy literal against its config', () => {
  it('compiled_policy_literal_mismatch_fails_closed: swapped, widened, re-algorithmed, missing, extra or absent policies refuse every request (config_error issuers)', async () => {
    const env = { HS_KEY: b64u(k.hs.secret!), OTHER_KEY: b64u(other.secret!) };
    const good = compileEntry(RAW);
    // A token of OTHER signed with HS_ISS's key: only a policy swap would let it through.
    const crossed = await token(k.hs, { iss: OTHER, aud: 'other-api' });
    const own = await token(k.hs);
    const ok = compiledWorker(good, {});
    expect((await ok.fetch(req(own), env, new TestCtx())).status).toBe(200);
    expect((await ok.fetch(req(crossed), env, new TestCtx())).status).toBe(401);

    const [a, b] = good.policies as [PolicyData, PolicyData];
    const tampered: [string, PolicyData[]][] = [
      ['swapped', [b, a]],
      ['audience widened', [{ ...a, claims: { ...a.claims, audience: new Set([AUD, 'other-api']) } }, b]],
      ['audience dropped', [{ ...a, claims: { ...a.claims, audience: undefined } }, b]],
      ['issuer renamed', [{ ...a, claims: { ...a.claims, issuer: new Set([HS_ISS, OTHER]) } }, { ...b, claims: { ...b.claims, issuer: new Set(['https://x.example']) } }]],
      ['algorithms changed', [{ ...a, algorithms: ['HS256', 'HS512'] }, b]],
      ['one missing', [a]],
      ['one extra', [a, b, { ...b, claims: { ...b.claims, issuer: new Set(['https://x.example']) } }]],
      // An entry written by an older build-guard passes none.
      ['none', undefined as unknown as PolicyData[]],
    ];
    await expectRefused(good, tampered, env, { own, crossed });
  });

  it('compiled_policy_literal_claims_drift_fails_closed: a literal that keeps issuer, audience and algorithms but not the claim checks the config sets (exp, clock tolerance, maxTokenAge, typ, profile, subject, required claims) refuses every request', async () => {
    // HS_ISS with the checks a token of harness.token meets; OTHER with the at+jwt profile (only its literal is tampered).
    const raw = {
      ...RAW,
      clockTolerance: 5,
      issuers: [{ ...RAW.issuers[0], typ: 'JWT', maxTokenAge: 600 }, { ...RAW.issuers[1], profile: 'at+jwt' }],
    };
    const env = { HS_KEY: b64u(k.hs.secret!), OTHER_KEY: b64u(other.secret!) };
    const good = compileEntry(raw);
    const own = await token(k.hs);
    const noExp = await token(k.hs, { exp: undefined });
    const ok = compiledWorker(good, {});
    expect((await ok.fetch(req(own), env, new TestCtx())).status).toBe(200);
    expect((await ok.fetch(req(noExp), env, new TestCtx())).status).toBe(401);

    const [a, b] = good.policies as [PolicyData, PolicyData];
    const drifted = (p: PolicyData, claims: Partial<PolicyData['claims']>): PolicyData => ({ ...p, claims: { ...p.claims, ...claims } });
    const tampered: [string, PolicyData[]][] = [
      ['exp not required', [drifted(a, { requireExp: false }), b]],
      ['clock tolerance raised', [drifted(a, { clockTolerance: 86_400 }), b]],
      ['maxTokenAge dropped', [drifted(a, { maxTokenAge: undefined }), b]],
      ['maxTokenAge raised', [drifted(a, { maxTokenAge: 31_536_000 }), b]],
      ['typ dropped', [drifted(a, { typ: undefined }), b]],
      ['profile dropped', [a, drifted(b, { profile: undefined })]],
      ['subject set', [drifted(a, { subject: 'alice' }), b]],
      ['required claims changed', [drifted(a, { requiredClaims: ['scope'] }), b]],
      // A literal of another shape (an older or newer build-guard): a claim setting missing altogether.
      ['a setting missing', [{ ...a, claims: Object.fromEntries(Object.entries(a.claims).filter(([n]) => n !== 'requireExp')) as PolicyData['claims'] }, b]],
    ];
    await expectRefused(good, tampered, env, { own, noExp });
  });
});

/** Every tampered entry refuses each token with a 500 and logs config_error `issuers`. */
async function expectRefused(good: CompiledConfig, tampered: [string, PolicyData[]][], env: Record<string, string>, tokens: Record<string, string>): Promise<void> {
  for (const [name, policies] of tampered) {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((l: string) => void lines.push(l));
    const worker = compiledWorker({ ...good, policies }, {});
    for (const [which, t] of Object.entries(tokens)) expect((await worker.fetch(req(t), env, new TestCtx())).status, `${name}: ${which}`).toBe(500);
    expect(lines.map((l) => (JSON.parse(l) as { setting: string }).setting), name).toContain('issuers');
    vi.restoreAllMocks();
  }
}
