// A compiled entry (src/cli/guard-entry.ts) holds its config as a literal and builds each
// issuer's policy from it in the isolate (issuer-settings.ts issuerPolicy): nothing else in the
// entry can drift from the config. What can still drift fails closed: a GUARD_CONFIG changed
// since the build (any issuer or claim setting), and an entry bundled with another edgejwt
// version than the one that wrote it (its config literal has that version's shape).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { compiledWorker, type CompiledConfig } from '../../src/worker/compiled.js';
import { PACKAGE_VERSION } from '../../src/worker/package-version.js';
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

const A = { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY', typ: 'JWT', maxTokenAge: 600 };
const B = { issuer: OTHER, audience: 'other-api', algorithms: ['HS256'], secretBinding: 'OTHER_KEY', profile: 'at+jwt' };
const RAW = { issuers: [A, B], origin: 'builtin:echo', cache: { jwks: false }, clockTolerance: 5 };

/** Every request to `worker` gets a 500, and the log names `setting`; returns the logged messages. */
async function expectRefused(name: string, worker: { fetch: ReturnType<typeof compiledWorker>['fetch'] }, env: Record<string, unknown>, tokens: string[], setting: string): Promise<string[]> {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((l: string) => void lines.push(l));
  for (const t of tokens) expect((await worker.fetch(req(t), env, new TestCtx())).status, name).toBe(500);
  const logged = lines.map((l) => JSON.parse(l) as { setting?: string; message?: string });
  expect(logged.map((l) => l.setting), name).toContain(setting);
  vi.restoreAllMocks();
  return logged.map((l) => l.message ?? '');
}

describe('a compiled entry against its config and its edgejwt', () => {
  it('compiled_config_drift_fails_closed: a GUARD_CONFIG whose issuers were swapped, widened, renamed, re-algorithmed, dropped, added, or whose claim checks were loosened refuses every request', async () => {
    const env = { HS_KEY: b64u(k.hs.secret!), OTHER_KEY: b64u(other.secret!) };
    const good = compileEntry(RAW);
    // A token of OTHER signed with HS_ISS's key: served only if a key followed the wrong issuer.
    const crossed = await token(k.hs, { iss: OTHER, aud: 'other-api' });
    const own = await token(k.hs);
    const noExp = await token(k.hs, { exp: undefined });
    const ok = compiledWorker(good, {});
    expect((await ok.fetch(req(own), { ...env, GUARD_CONFIG: JSON.stringify(RAW) }, new TestCtx())).status).toBe(200);
    expect((await ok.fetch(req(crossed), env, new TestCtx())).status).toBe(401);
    expect((await ok.fetch(req(noExp), env, new TestCtx())).status).toBe(401);

    const drifts: [string, unknown][] = [
      ['swapped', { ...RAW, issuers: [B, A] }],
      ['audience widened', { ...RAW, issuers: [{ ...A, audience: [AUD, 'other-api'] }, B] }],
      ['issuer renamed', { ...RAW, issuers: [{ ...A, issuer: [HS_ISS, 'https://x.example'] }, B] }],
      ['algorithms changed', { ...RAW, issuers: [{ ...A, algorithms: ['HS256', 'HS512'] }, B] }],
      ['one missing', { ...RAW, issuers: [A] }],
      ['one extra', { ...RAW, issuers: [A, B, { ...B, issuer: 'https://x.example' }] }],
      ['clock tolerance raised', { ...RAW, clockTolerance: 600 }],
      ['maxTokenAge dropped', { ...RAW, issuers: [{ ...A, maxTokenAge: undefined }, B] }],
      ['typ dropped', { ...RAW, issuers: [{ ...A, typ: undefined }, B] }],
      ['profile dropped', { ...RAW, issuers: [A, { ...B, profile: undefined }] }],
    ];
    for (const [name, g] of drifts) await expectRefused(name, compiledWorker(good, {}), { ...env, GUARD_CONFIG: JSON.stringify(g) }, [own, crossed, noExp], 'GUARD_CONFIG');
  });

  it('compiled_entry_from_other_version_fails_closed: an entry written by another edgejwt, or by one that wrote no version (an older entry passing a policies literal), refuses every request', async () => {
    const env = { HS_KEY: b64u(k.hs.secret!), OTHER_KEY: b64u(other.secret!) };
    const good = compileEntry(RAW);
    const own = await token(k.hs);
    expect((await compiledWorker(good, {}).fetch(req(own), env, new TestCtx())).status).toBe(200);
    const others: [string, CompiledConfig, string][] = [
      ['older', { ...good, version: '0.0.9' }, 'edgejwt 0.0.9'],
      ['newer', { ...good, version: `${PACKAGE_VERSION}-next.1` }, `edgejwt ${PACKAGE_VERSION}-next.1`],
      ['empty', { ...good, version: '' }, 'edgejwt '],
      // What the previous build-guard wrote: { config, policies, source }, no version.
      ['no version', { config: good.config, policies: [], source: good.source } as unknown as CompiledConfig, 'an older edgejwt'],
      // A config literal of another shape is never read (not even for the self-test's algorithms).
      ['another config shape', { config: { issuerList: [] }, source: good.source, version: '9.0.0' } as unknown as CompiledConfig, 'edgejwt 9.0.0'],
    ];
    for (const [name, entry, built] of others) {
      const messages = await expectRefused(name, compiledWorker(entry, {}), env, [own, own], 'version');
      expect(messages.some((m) => m.endsWith(`version: built by ${built}, running ${PACKAGE_VERSION}: run edgejwt build-guard and deploy again`)), `${name}: ${messages.join(' | ')}`).toBe(true);
    }
  });
});
