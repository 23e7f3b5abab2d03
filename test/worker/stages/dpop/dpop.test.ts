// The DPoP stage through the whole guard inside workerd (RFC 9449), with the
// isolate replay store: a bound token comes with a fresh proof for this very
// request, or it is refused with a DPoP challenge; a bound token is never a bearer
// token, with or without DPoP configured. Proofs are made with jose.
import * as jose from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../src/worker/config.js';
import { NONCE_PERIOD_S } from '../../../../src/worker/stages/dpop/dpop-nonce.js';
import {
  bearer,
  baseConfig,
  demoKeys,
  HS_ISS,
  ISS,
  AUD,
  JWKS_URL,
  makeGuard,
  token,
  type Keys,
  type Made,
} from '../../harness.js';
import { dpopClient, dpopInit, proof, type DpopClient } from './dpop-helpers.js';

const API = 'https://api.example.com';
const NONCE_SECRET = 'n'.repeat(40);
let k: Keys;
let client: DpopClient;

function config(
  mode: 'required' | 'allowed' | undefined,
  dpop: Record<string, unknown> | null = { replay: 'isolate' },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return baseConfig(k, {
    issuers: [
      {
        issuer: ISS,
        audience: AUD,
        algorithms: ['EdDSA', 'RS256'],
        jwksUrl: JWKS_URL,
        ...(mode === undefined ? {} : { dpop: mode }),
      },
      { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' },
    ],
    ...(dpop === null ? {} : { dpop }),
    ...extra,
  });
}

function bound(c: DpopClient = client, extra: Record<string, unknown> = {}): Promise<string> {
  return token(k.ed, { cnf: { jkt: c.jkt }, jti: crypto.randomUUID(), ...extra });
}

async function dpopSend(
  g: Made,
  path: string,
  at: string,
  o: Parameters<typeof proof>[4] = {},
  init: RequestInit = {},
  c: DpopClient = client,
): Promise<Response> {
  const method = init.method ?? 'GET';
  return g.send(path, dpopInit(at, await proof(c, method, `${API}${path}`, at, o), init));
}

/** The rejection log's code of the last refusal. */
function lastCode(g: Made): string | undefined {
  const lines = g.logs
    .map((l) => JSON.parse(l) as { edgejwt?: string; code?: string })
    .filter((l) => l.edgejwt === 'rejected');
  return lines.at(-1)?.code;
}

async function expectDpopRefusal(res: Response, error: string, secrets: string[] = []): Promise<void> {
  expect(res.status).toBe(401);
  const challenge = res.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(
    new RegExp(
      `^DPoP realm="edgejwt", error="${error}", error_description="[^"]+", algs="ES256 EdDSA Ed25519 RS256 PS256"$`,
    ),
  );
  const body = await res.text();
  for (const s of secrets) {
    expect(body).not.toContain(s);
    expect(challenge).not.toContain(s);
  }
}

beforeAll(async () => {
  k = await demoKeys();
  client = await dpopClient('ES256');
});

describe('DPoP stage: the accepted path', () => {
  it(
    'dpop_bound_token_with_proof_accepted: a bound token with a fresh proof for this method and URL reaches ' +
      'the origin (ES256 and EdDSA clients)',
    async () => {
      const g = await makeGuard(k, { config: config('required') });
      const at = await bound();
      const res = await dpopSend(g, '/orders?x=1', at, { htu: `${API}/orders` }, { method: 'POST', body: 'x' });
      expect(res.status).toBe(200);
      const ed = await dpopClient('EdDSA');
      expect((await dpopSend(g, '/orders', await bound(ed), {}, {}, ed)).status).toBe(200);
      // The scheme is case-insensitive.
      const at2 = await bound();
      const init = dpopInit(at2, await proof(client, 'GET', `${API}/x`, at2));
      (init.headers as Headers).set('authorization', `dpop ${at2}`);
      expect((await g.send('/x', init)).status).toBe(200);
    },
  );

  it(
    'dpop_allowed_unbound_bearer_passes: with dpop "allowed", an unbound bearer token passes, and a DPoP ' +
      'request is checked in full',
    async () => {
      const g = await makeGuard(k, { config: config('allowed') });
      expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
      expect((await dpopSend(g, '/x', await bound())).status).toBe(200);
      const res = await dpopSend(g, '/x', await bound(), { htm: 'POST' });
      await expectDpopRefusal(res, 'invalid_dpop_proof');
      expect(lastCode(g)).toBe('ERR_DPOP_HTM_MISMATCH');
    },
  );
});

describe('DPoP stage: refusals', () => {
  let g: Made;
  beforeAll(async () => {
    g = await makeGuard(k, { config: config('required') });
  });

  it('dpop_replayed_proof_refused: the same proof twice is accepted once', async () => {
    const at = await bound();
    const p = await proof(client, 'GET', `${API}/r`, at);
    expect((await g.send('/r', dpopInit(at, p))).status).toBe(200);
    const again = await g.send('/r', dpopInit(at, p));
    await expectDpopRefusal(again, 'invalid_dpop_proof', [at, p]);
    expect(lastCode(g)).toBe('dpop_replayed');
  });

  it(
    'dpop_isolate_replay_kept_per_isolate_not_per_env: a guard built for a fresh env object refuses a replayed ' +
      'proof',
    async () => {
      // One guard is built per env object; the "isolate" store must still be one per isolate.
      const first = await makeGuard(k, { config: config('required') });
      const second = await makeGuard(k, { config: config('required') });
      const at = await bound();
      const p = await proof(client, 'GET', `${API}/r`, at);
      expect((await first.send('/r', dpopInit(at, p))).status).toBe(200);
      await expectDpopRefusal(await second.send('/r', dpopInit(at, p)), 'invalid_dpop_proof', [at, p]);
      expect(lastCode(second)).toBe('dpop_replayed');
    },
  );

  it('dpop_proof_for_other_method_or_url_refused: htm and htu must name this request', async () => {
    const at = await bound();
    await expectDpopRefusal(await dpopSend(g, '/a', at, { htm: 'POST' }), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('ERR_DPOP_HTM_MISMATCH');
    await expectDpopRefusal(await dpopSend(g, '/a', at, { htu: `${API}/b` }), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('ERR_DPOP_HTU_MISMATCH');
    await expectDpopRefusal(await dpopSend(g, '/a', at, { htu: 'https://other.example.com/a' }), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('ERR_DPOP_HTU_MISMATCH');
  });

  it('dpop_proof_with_private_jwk_refused: a proof whose jwk carries d is refused', async () => {
    const at = await bound();
    const priv = await jose.exportJWK(client.privateKey);
    await expectDpopRefusal(await dpopSend(g, '/a', at, { jwk: priv }), 'invalid_dpop_proof', [String(priv.d)]);
    expect(lastCode(g)).toBe('ERR_DPOP_JWK_INVALID');
  });

  it('dpop_hs256_proof_refused: a MAC-signed proof is refused (asymmetric algorithms only)', async () => {
    const at = await bound();
    const secret = new Uint8Array(32).fill(9);
    const p = await new jose.SignJWT({
      htm: 'GET',
      htu: `${API}/a`,
      iat: Math.floor(Date.now() / 1000),
      jti: crypto.randomUUID(),
      ath: 'x',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: client.jwk })
      .sign(secret);
    await expectDpopRefusal(await g.send('/a', dpopInit(at, p)), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('ERR_DPOP_ALG_NOT_ALLOWED');
  });

  it('dpop_proof_for_other_token_refused: ath must be the hash of the token sent', async () => {
    const at = await bound();
    const other = await bound();
    const p = await proof(client, 'GET', `${API}/a`, other);
    await expectDpopRefusal(await g.send('/a', dpopInit(at, p)), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('ERR_DPOP_ATH_MISMATCH');
    await expectDpopRefusal(await dpopSend(g, '/a', at, { ath: null }), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('ERR_DPOP_ATH_MISMATCH');
  });

  it('dpop_proof_key_not_cnf_jkt_refused: a valid proof by another key than the token names', async () => {
    const thief = await dpopClient('ES256');
    const at = await bound(client);
    await expectDpopRefusal(await dpopSend(g, '/a', at, {}, {}, thief), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('ERR_DPOP_BINDING_MISMATCH');
  });

  it('dpop_two_proof_headers_refused: two DPoP headers, or one holding a list, are refused', async () => {
    const at = await bound();
    const p1 = await proof(client, 'GET', `${API}/a`, at);
    const p2 = await proof(client, 'GET', `${API}/a`, at);
    await expectDpopRefusal(await g.send('/a', dpopInit(at, [p1, p2])), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('dpop_multiple_proofs');
    await expectDpopRefusal(await g.send('/a', dpopInit(at, `${p1},${p2}`)), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('dpop_multiple_proofs');
  });

  it('dpop_proof_missing_refused: the DPoP scheme without a proof', async () => {
    const at = await bound();
    await expectDpopRefusal(await g.send('/a', { headers: { authorization: `DPoP ${at}` } }), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('dpop_proof_missing');
  });

  it('dpop_iat_window: a proof older than maxAgeSeconds, or from the future, is refused', async () => {
    const at = await bound();
    const now = Math.floor(Date.now() / 1000);
    await expectDpopRefusal(await dpopSend(g, '/a', at, { iat: now - 120 }), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('ERR_DPOP_IAT_INVALID');
    await expectDpopRefusal(await dpopSend(g, '/a', at, { iat: now + 60 }), 'invalid_dpop_proof');
    expect(lastCode(g)).toBe('ERR_DPOP_IAT_INVALID');
    expect((await dpopSend(g, '/a', at, { iat: now - 50 })).status).toBe(200);
  });

  it(
    'dpop_required_refuses_bearer_with_dpop_challenge: a bearer token (bound or not) to a required issuer gets ' +
      'a DPoP challenge',
    async () => {
      const res = await g.send('/a', bearer(await token(k.ed)));
      await expectDpopRefusal(res, 'invalid_token');
      expect(lastCode(g)).toBe('dpop_required');
    },
  );

  it(
    'dpop_missing_token_offers_both_challenges: with DPoP configured, a request without a token is offered ' +
      'Bearer and DPoP (RFC 9449 §7.2)',
    async () => {
      const res = await g.send('/a');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="edgejwt", DPoP realm="edgejwt", algs="ES256 EdDSA Ed25519 RS256 PS256"',
      );
    },
  );

  it(
    'dpop_invalid_token_answered_with_dpop_challenge: an expired or forged token sent with the DPoP scheme ' +
      'gets a DPoP invalid_token challenge',
    async () => {
      const expired = await bound(client, {
        exp: Math.floor(Date.now() / 1000) - 100,
        iat: Math.floor(Date.now() / 1000) - 200,
      });
      await expectDpopRefusal(await dpopSend(g, '/a', expired), 'invalid_token', [expired]);
      expect(lastCode(g)).toBe('ERR_JWT_EXPIRED');
    },
  );

  it('dpop_unbound_token_with_dpop_scheme_refused: a token without cnf.jkt sent with a proof', async () => {
    const at = await token(k.ed);
    await expectDpopRefusal(await dpopSend(g, '/a', at), 'invalid_token');
    expect(lastCode(g)).toBe('dpop_token_not_bound');
  });

  it(
    'dpop_scheme_for_issuer_without_dpop_refused: the DPoP scheme with a token of an issuer that does not set ' +
      'dpop',
    async () => {
      const at = await token(k.hs);
      const res = await dpopSend(g, '/a', at);
      expect(res.status).toBe(401);
      expect(lastCode(g)).toBe('dpop_not_accepted');
    },
  );

  it(
    'dpop_l1_cached_token_needs_fresh_proof: a token already verified (L1) still needs its own proof on every ' +
      'request',
    async () => {
      const at = await bound();
      expect((await dpopSend(g, '/l1', at)).status).toBe(200);
      const l1 = await g.send('/l1', { headers: { authorization: `DPoP ${at}` } });
      await expectDpopRefusal(l1, 'invalid_dpop_proof');
      expect(lastCode(g)).toBe('dpop_proof_missing');
      expect((await g.send('/l1', bearer(at))).status).toBe(401);
      expect((await dpopSend(g, '/l1', at)).status).toBe(200);
      expect(g.guard.counters.snapshot()['l1_hit']).toBeGreaterThan(0);
    },
  );
});

describe('dpop_bound_token_never_bearer: a token with cnf is refused unless the request proved its key', () => {
  it('dpop_bound_token_never_bearer: without any dpop config, a cnf.jkt token as Bearer is refused 401', async () => {
    const g = await makeGuard(k, { config: config(undefined, null) });
    expect((await g.send('/a', bearer(await token(k.ed)))).status).toBe(200);
    const res = await g.send('/a', bearer(await bound()));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="edgejwt", error="invalid_token"/);
    expect(lastCode(g)).toBe('unproven_confirmation');
    // Without dpop config the DPoP scheme is no credential at all.
    const at = await bound();
    expect((await dpopSend(g, '/a', at)).status).toBe(401);
    expect(lastCode(g)).toBe('missing_token');
  });

  it(
    'dpop_bound_token_never_bearer: with dpop "allowed", a bound token as Bearer (even with a valid proof ' +
      'beside it) is refused with a DPoP challenge',
    async () => {
      const g = await makeGuard(k, { config: config('allowed') });
      const at = await bound();
      await expectDpopRefusal(await g.send('/a', bearer(at)), 'invalid_token');
      expect(lastCode(g)).toBe('unproven_confirmation');
      const withProof = bearer(at);
      (withProof.headers as Record<string, string>).dpop = await proof(client, 'GET', `${API}/a`, at);
      await expectDpopRefusal(await g.send('/a', withProof), 'invalid_token');
      // An HS issuer without dpop: a bound token from it is refused the same way.
      expect((await g.send('/a', bearer(await token(k.hs, { cnf: { jkt: client.jkt } })))).status).toBe(401);
    },
  );

  it(
    'unproven_confirmation_other_members: cnf x5t#S256 without a proven certificate, cnf.jwk, and a cnf that ' +
      'is no object are refused; an empty cnf passes',
    async () => {
      const g = await makeGuard(k, { config: config(undefined, null) });
      for (const cnf of [
        { 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' },
        { jwk: client.jwk },
        { kid: 'k1' },
        'jkt',
        [client.jkt],
      ]) {
        const res = await g.send('/a', bearer(await token(k.ed, { cnf })));
        expect(res.status, JSON.stringify(cnf)).toBe(401);
        expect(lastCode(g)).toBe('unproven_confirmation');
      }
      expect((await g.send('/a', bearer(await token(k.ed, { cnf: {} })))).status).toBe(200);
    },
  );
});

describe('DPoP nonces (RFC 9449 §8, §9)', () => {
  it(
    'dpop_nonce_required: without a nonce, or with a stale one, 401 use_dpop_nonce with a fresh DPoP-Nonce; ' +
      'with it, accepted',
    async () => {
      let now = Date.now();
      const g = await makeGuard(k, {
        config: config('required', { replay: 'isolate', nonceSecretBinding: 'DPOP_NONCE' }),
        env: { DPOP_NONCE: NONCE_SECRET },
        deps: { now: () => now },
      });
      const at = await bound();
      const first = await dpopSend(g, '/n', at);
      await expectDpopRefusal(first, 'use_dpop_nonce');
      expect(lastCode(g)).toBe('dpop_nonce_missing');
      const nonce = first.headers.get('dpop-nonce')!;
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const ok = await dpopSend(g, '/n', at, { nonce });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('dpop-nonce')).toBeNull();
      await expectDpopRefusal(
        await dpopSend(g, '/n', at, {
          nonce: `${nonce.slice(0, -1)}A` === nonce ? `${nonce.slice(0, -1)}B` : `${nonce.slice(0, -1)}A`,
        }),
        'use_dpop_nonce',
      );
      expect(lastCode(g)).toBe('dpop_nonce_stale');
      // One bucket later the nonce still works, and the answer hands out the next one.
      now += NONCE_PERIOD_S * 1000;
      const rotated = await dpopSend(g, '/n', at, { nonce, iat: Math.floor(now / 1000) });
      expect(rotated.status).toBe(200);
      const next = rotated.headers.get('dpop-nonce');
      expect(next).not.toBeNull();
      expect(next).not.toBe(nonce);
      // Two buckets later it is stale.
      now += NONCE_PERIOD_S * 1000;
      const stale = await dpopSend(g, '/n', at, { nonce, iat: Math.floor(now / 1000) });
      await expectDpopRefusal(stale, 'use_dpop_nonce');
      expect(stale.headers.get('dpop-nonce')).not.toBe(nonce);
    },
  );

  it('dpop_nonce_is_keyed: another secret accepts none of these nonces', async () => {
    const a = await makeGuard(k, {
      config: config('required', { replay: 'isolate', nonceSecretBinding: 'DPOP_NONCE' }),
      env: { DPOP_NONCE: NONCE_SECRET },
    });
    const b = await makeGuard(k, {
      config: config('required', { replay: 'isolate', nonceSecretBinding: 'DPOP_NONCE' }),
      env: { DPOP_NONCE: 'm'.repeat(40) },
    });
    const at = await bound();
    const nonce = (await dpopSend(a, '/n', at)).headers.get('dpop-nonce')!;
    await expectDpopRefusal(await dpopSend(b, '/n', at, { nonce }), 'use_dpop_nonce');
  });
});

describe('DPoP replay store failures fail closed', () => {
  it(
    'dpop_store_down_503: a replay store that does not ' + 'answer refuses the request with 503, never accepts it',
    async () => {
      const down = {
        idFromName: (n: string) => n,
        get: () => ({ fetch: () => Promise.reject(new Error('unreachable')) }),
      };
      const g = await makeGuard(k, {
        config: config('required', { replay: { durableObject: 'DPOP_REPLAY' } }),
        env: { DPOP_REPLAY: down },
      });
      const res = await dpopSend(g, '/s', await bound());
      expect(res.status).toBe(503);
      expect(lastCode(g)).toBe('dpop_replay_unavailable');
      const odd = {
        idFromName: (n: string) => n,
        get: () => ({ fetch: () => Promise.resolve(Response.json({ outcome: 'maybe' })) }),
      };
      const g2 = await makeGuard(k, {
        config: config('required', { replay: { durableObject: 'DPOP_REPLAY' } }),
        env: { DPOP_REPLAY: odd },
      });
      expect((await dpopSend(g2, '/s', await bound())).status).toBe(503);
    },
  );
});

describe('DPoP in the origin assertion', () => {
  it(
    "origin_assertion_carries_cnf: a DPoP request's assertion carries cnf.jkt of the proven key; a bearer " +
      "request's carries none",
    async () => {
      const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
      const {
        key_ops: _o,
        ext: _e,
        ...jwk
      } = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as Record<string, unknown>;
      const g = await makeGuard(k, {
        config: config(
          'allowed',
          { replay: 'isolate' },
          { originAssertion: { alg: 'EdDSA', claims: ['sub', 'scope'], keyBinding: 'ASSERTION_KEY' } },
        ),
        env: { ASSERTION_KEY: JSON.stringify(jwk) },
      });
      const res = await dpopSend(g, '/o', await bound());
      expect(res.status).toBe(200);
      const headers = ((await res.json()) as { headers: Record<string, string> }).headers;
      const assertion = Object.entries(headers).find(([name]) => name.includes('assertion'))![1];
      expect(jose.decodeJwt(assertion).cnf).toEqual({ jkt: client.jkt });
      const plain = await g.send('/o', bearer(await token(k.ed)));
      const plainHeaders = ((await plain.json()) as { headers: Record<string, string> }).headers;
      const plainAssertion = Object.entries(plainHeaders).find(([name]) => name.includes('assertion'))![1];
      expect(jose.decodeJwt(plainAssertion).cnf).toBeUndefined();
    },
  );
});

describe('DPoP and forwardToken', () => {
  it(
    'dpop_proof_dropped_with_token: with forwardToken false the origin receives neither the token nor the DPoP ' +
      'proof; with the default it receives both',
    async () => {
      for (const forwardToken of [false, true]) {
        const g = await makeGuard(k, { config: config('required', { replay: 'isolate' }, { forwardToken }) });
        const res = await dpopSend(g, '/f', await bound());
        expect(res.status).toBe(200);
        const headers = ((await res.json()) as { headers: Record<string, string> }).headers;
        expect(headers.dpop !== undefined, String(forwardToken)).toBe(forwardToken);
        expect(headers.authorization !== undefined, String(forwardToken)).toBe(forwardToken);
      }
    },
  );
});

describe('DPoP config', () => {
  const issuer = (dpop?: unknown) => ({
    issuer: ISS,
    audience: AUD,
    algorithms: ['EdDSA'],
    jwksUrl: JWKS_URL,
    ...(dpop === undefined ? {} : { dpop }),
  });
  const bad = (raw: Record<string, unknown>): string => {
    try {
      parseConfig(raw);
    } catch (e) {
      return (e as Error).message.replace(/^GUARD_CONFIG /, '');
    }
    return 'accepted';
  };

  it('dpop_config_errors_name_the_setting', () => {
    expect(bad({ issuers: [issuer('required')] })).toMatch(/^dpop:/);
    expect(bad({ issuers: [issuer()], dpop: { replay: 'isolate' } })).toMatch(/^dpop:.*no issuer/);
    expect(bad({ issuers: [issuer('yes')], dpop: { replay: 'isolate' } })).toMatch(/^issuers\[0\]\.dpop:/);
    expect(bad({ issuers: [issuer('required')], dpop: { replay: 'isolate', algorithms: ['ES256', 'HS256'] } })).toMatch(
      /^dpop\.algorithms\[1\]:/,
    );
    expect(bad({ issuers: [issuer('required')], dpop: { replay: 'isolate', algorithms: ['none'] } })).toMatch(
      /^dpop\.algorithms\[0\]:/,
    );
    expect(bad({ issuers: [issuer('required')], dpop: { replay: 'kv' } })).toMatch(/^dpop\.replay:/);
    expect(bad({ issuers: [issuer('required')], dpop: {} })).toMatch(/^dpop\.replay:/);
    expect(bad({ issuers: [issuer('required')], dpop: { replay: 'isolate', maxAgeSeconds: 0 } })).toMatch(
      /^dpop\.maxAgeSeconds:/,
    );
    expect(bad({ issuers: [issuer('required')], dpop: { replay: 'isolate', nonce: true } })).toMatch(/^dpop\.nonce:/);
    expect(bad({ issuers: [issuer('allowed')], dpop: { replay: { durableObject: 'DPOP_REPLAY' } } })).toBe('accepted');
  });

  it(
    'dpop_bindings_checked_at_start: a missing Durable ' + 'Object binding or a short nonce secret is a ConfigError',
    async () => {
      await expect(makeGuard(k, { config: config('required', { replay: { durableObject: 'NOPE' } }) })).rejects.toThrow(
        /dpop\.replay\.durableObject/,
      );
      await expect(
        makeGuard(k, {
          config: config('required', { replay: 'isolate', nonceSecretBinding: 'N' }),
          env: { N: 'short' },
        }),
      ).rejects.toThrow(/dpop\.nonceSecretBinding/);
    },
  );
});
