// createGuard(..., { stages: defaultStages }).authenticate() runs the same after-verify stages as the
// Worker: a DPoP-bound token as Bearer, a replayed proof, an mTLS-bound token without
// its certificate and a revoked token are refused there too (probes; they held).
import { beforeAll, describe, expect, it } from 'vitest';
import { createGuard, defaultStages, type GuardConfigInput } from '../../src/worker/api.js';
import { AUD, ISS, TestCtx, bearer, demoKeys, kv, token, type Keys } from './harness.js';
import { dpopClient, dpopInit, proof, type DpopClient } from './stages/dpop/dpop-helpers.js';

const SECRET = 'revocation-admin-secret-0123456789';
let k: Keys;
let client: DpopClient;
beforeAll(async () => {
  k = await demoKeys();
  client = await dpopClient('ES256');
});

function inlineConfig(): GuardConfigInput {
  return {
    issuers: [
      {
        issuer: ISS,
        audience: AUD,
        algorithms: ['EdDSA'],
        jwks: { keys: [{ ...k.ed.publicJwk, kid: k.ed.kid }] },
        dpop: 'allowed',
      },
    ],
    origin: 'builtin:echo',
    dpop: { replay: 'isolate' },
    revocation: { path: '/__guard/revocations', secretBinding: 'REVOCATION_SECRET', store: 'isolate' },
  } as GuardConfigInput;
}

const req = (path: string, init?: RequestInit): Request => new Request(`https://api.example.com${path}`, init);

describe('embedding: authenticate runs the after-verify stages', () => {
  it(
    'embed_authenticate_runs_after_verify_stages: bound token as Bearer, replayed proof, unproven x5t and a ' +
      'revoked jti are refused by authenticate',
    async () => {
      const guard = createGuard(inlineConfig(), { stages: defaultStages });
      const e = { VERIFY_CACHE: kv.VERIFY_CACHE, JWKS_CACHE: kv.JWKS_CACHE, REVOCATION_SECRET: SECRET };
      const at = await token(k.ed, { cnf: { jkt: client.jkt }, jti: 'embed-1' });
      const p = await proof(client, 'GET', 'https://api.example.com/x', at);
      expect((await guard.authenticate(req('/x', dpopInit(at, p)), e, new TestCtx())).ok).toBe(true);
      expect((await guard.authenticate(req('/x', dpopInit(at, p)), e, new TestCtx())).ok).toBe(false);
      const asBearer = await guard.authenticate(req('/x', bearer(at)), e, new TestCtx());
      expect(asBearer.ok).toBe(false);
      if (!asBearer.ok) expect(asBearer.response.status).toBe(401);
      const x5t = await token(k.ed, { cnf: { 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' } });
      expect((await guard.authenticate(req('/x', bearer(x5t)), e, new TestCtx())).ok).toBe(false);
      const plain = await token(k.ed, { jti: 'embed-2' });
      expect((await guard.authenticate(req('/x', bearer(plain)), e, new TestCtx())).ok).toBe(true);
      const revoke = req('/__guard/revocations', {
        method: 'POST',
        headers: { 'x-guard-admin': SECRET },
        body: JSON.stringify({ jti: 'embed-2', exp: Math.floor(Date.now() / 1000) + 600 }),
      });
      expect((await guard.fetch(revoke, e, new TestCtx())).status).toBe(200);
      const revoked = await guard.authenticate(req('/x', bearer(plain)), e, new TestCtx());
      expect(revoked.ok).toBe(false);
      if (!revoked.ok) expect(revoked.response.status).toBe(401);
    },
  );
});
