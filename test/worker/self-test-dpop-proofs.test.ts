// A compiled guard's DPoP stage verifies EdDSA proofs on the Wasm core, outside the gated
// verifier: the Ed25519 known answer runs before the first proof is verified, even when no
// issuer uses EdDSA (self-test-gate.ts, beforeProofs). Without it, a core whose Ed25519
// verify accepts any signature let a stolen DPoP-bound token through with a proof that
// carries the holder's public key but no signature by it.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { compiledWorker, dpop } from '../../src/worker/compiled.js';
import { configSource } from '../../src/worker/config-source.js';
import { parseConfig } from '../../src/worker/config.js';
import { Core } from '../../src/wasm/core.js';
import { b64u } from '../shared/jwt-mint.js';
import { AUD, HS_ISS, TestCtx, demoKeys, token, type Keys } from './harness.js';
import { dpopClient, dpopInit, proof } from './dpop-helpers.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

describe('dpop_eddsa_proof_waits_for_ed25519_known_answer', () => {
  it('a core whose Ed25519 verify accepts anything fails the known answer before the first EdDSA proof: a proof not signed by the bound key is never accepted', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((l: string) => void lines.push(l));
    const raw = { issuers: [{ issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY', dpop: 'required' }], dpop: { replay: 'isolate' }, origin: 'builtin:echo', cache: { jwks: false } };
    const worker = compiledWorker({ config: parseConfig(raw), source: configSource(raw)! }, { dpop });
    const env = { HS_KEY: b64u(k.hs.secret!) };
    const holder = await dpopClient('EdDSA');
    const thief = await dpopClient('EdDSA');
    const stolen = await token(k.hs, { cnf: { jkt: holder.jkt }, jti: crypto.randomUUID() });
    const url = 'https://api.example.com/x';
    // Signed by the thief's key, naming the holder's.
    const forgedProof = await proof(thief, 'GET', url, stolen, { jwk: holder.jwk });
    const verify = Core.prototype.verify;
    vi.spyOn(Core.prototype, 'verify').mockImplementation(function (this: Core, ...args: Parameters<Core['verify']>) {
      return args[0] === 'ed25519' || verify.apply(this, args);
    });
    const res = await worker.fetch(new Request(url, dpopInit(stolen, forgedProof)), env, new TestCtx());
    expect(res.status).toBe(500);
    expect(lines.some((l) => (JSON.parse(l) as { setting?: string }).setting === 'self-test')).toBe(true);
  });

  it('with a sound core, an EdDSA proof by the bound key passes and one by another key is refused', async () => {
    const raw = { issuers: [{ issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY', dpop: 'required' }], dpop: { replay: 'isolate' }, origin: 'builtin:echo', cache: { jwks: false } };
    const worker = compiledWorker({ config: parseConfig(raw), source: configSource(raw)! }, { dpop });
    const env = { HS_KEY: b64u(k.hs.secret!) };
    const holder = await dpopClient('EdDSA');
    const thief = await dpopClient('EdDSA');
    const at = await token(k.hs, { cnf: { jkt: holder.jkt }, jti: crypto.randomUUID() });
    const url = 'https://api.example.com/x';
    expect((await worker.fetch(new Request(url, dpopInit(at, await proof(holder, 'GET', url, at))), env, new TestCtx())).status).toBe(200);
    expect((await worker.fetch(new Request(url, dpopInit(at, await proof(thief, 'GET', url, at, { jwk: holder.jwk }))), env, new TestCtx())).status).toBe(401);
  });
});
