// The DPoP stage through the whole guard with the Durable Object replay store
// (DPOP_REPLAY, test/worker-do/wrangler.toml): a proof is accepted once across
// guards that share the namespace (two isolates of one deployment), and every
// request needs its own proof.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  baseConfig,
  AUD,
  demoKeys,
  HS_ISS,
  ISS,
  JWKS_URL,
  makeGuard,
  token,
  type Keys,
  type Made,
} from '../worker/harness.js';
import * as guardEntry from '../../src/worker/index.js';
import { DpopReplayShard } from '../../src/worker/dpop-replay/index.js';
import { dpopClient, dpopInit, proof, type DpopClient } from '../worker/stages/dpop/dpop-helpers.js';

const API = 'https://api.example.com';
let k: Keys;
let client: DpopClient;
let a: Made;
let b: Made;

beforeAll(async () => {
  k = await demoKeys();
  client = await dpopClient('ES256');
  const config = baseConfig(k, {
    issuers: [
      { issuer: ISS, audience: AUD, algorithms: ['EdDSA', 'RS256'], jwksUrl: JWKS_URL, dpop: 'required' },
      { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' },
    ],
    dpop: { replay: { durableObject: 'DPOP_REPLAY' } },
  });
  // Two guards: what two isolates of one deployment are.
  a = await makeGuard(k, {
    config,
    env: { DPOP_REPLAY: (env as Record<string, unknown>).DPOP_REPLAY, VERIFY_CACHE: undefined, JWKS_CACHE: undefined },
  });
  b = await makeGuard(k, {
    config,
    env: { DPOP_REPLAY: (env as Record<string, unknown>).DPOP_REPLAY, VERIFY_CACHE: undefined, JWKS_CACHE: undefined },
  });
});

describe('DPoP through the guard, Durable Object replay store', () => {
  it(
    'dpop_replay_across_isolates_refused: a proof accepted by one guard is refused by another sharing the ' +
      'namespace, and by itself',
    async () => {
      const at = await token(k.ed, { cnf: { jkt: client.jkt }, jti: crypto.randomUUID() });
      const p = await proof(client, 'GET', `${API}/orders`, at);
      expect((await a.send('/orders', dpopInit(at, p))).status).toBe(200);
      const other = await b.send('/orders', dpopInit(at, p));
      expect(other.status).toBe(401);
      expect(other.headers.get('www-authenticate')).toMatch(/^DPoP realm="edgejwt", error="invalid_dpop_proof"/);
      expect((await a.send('/orders', dpopInit(at, p))).status).toBe(401);
      // A fresh proof for the same token is fine on either guard.
      expect((await b.send('/orders', dpopInit(at, await proof(client, 'GET', `${API}/orders`, at)))).status).toBe(200);
    },
  );

  it('dpop_replay_racing_requests: the same proof sent to both guards at once is accepted exactly once', async () => {
    const at = await token(k.ed, { cnf: { jkt: client.jkt }, jti: crypto.randomUUID() });
    const p = await proof(client, 'POST', `${API}/pay`, at);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).send('/pay', dpopInit(at, p, { method: 'POST' }))).map((r) =>
        r.then((x) => x.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(9);
  });

  it(
    'guard_entry_exports_dpop_replay_shard: the guard Worker entry exports the class wrangler.toml binds; every ' +
      'named export is a Durable Object class (workerd makes each an entrypoint)',
    () => {
      expect(guardEntry.DpopReplayShard).toBe(DpopReplayShard);
      for (const [name, value] of Object.entries(guardEntry)) {
        if (name === 'default') continue;
        expect(typeof value, name).toBe('function');
        expect(typeof (value as { prototype: { fetch?: unknown } }).prototype.fetch, name).toBe('function');
      }
    },
  );
});
