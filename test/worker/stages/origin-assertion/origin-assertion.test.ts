// The origin assertion inside workerd: every forwarded request after a verified token
// carries a short-lived JWT signed by the guard, which the origin verifies with the key
// set the guard serves (with edgejwt and with jose); a client cannot inject one; an
// expired one is refused; configuration mistakes name the setting.
import * as jose from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, createVerifier } from '../../../../src/index.js';
import { parseConfig } from '../../../../src/worker/config.js';
import {
  assertionKeyJson,
  bearer,
  baseConfig,
  demoKeys,
  makeGuard,
  token,
  type Keys,
  type Made,
} from '../../harness.js';

const GUARD = 'https://api.example.com';
const ORIGIN_AUD = 'https://origin.example.com';
let k: Keys;
let g: Made;
let privateJwk: string;

beforeAll(async () => {
  k = await demoKeys();
  privateJwk = await assertionKeyJson();
  g = await makeGuard(k, {
    config: baseConfig(k, {
      originAssertion: {
        header: 'X-Edgejwt-Assertion',
        alg: 'EdDSA',
        ttl: 60,
        claims: ['sub', 'scope'],
        keyBinding: 'ASSERTION_KEY',
      },
    }),
    env: { ASSERTION_KEY: privateJwk },
  });
});

function forwarded(res: Response): Promise<Record<string, string>> {
  return res.json().then((b) => (b as { headers: Record<string, string> }).headers);
}

async function servedJwks(): Promise<{ keys: Record<string, unknown>[] }> {
  const res = await g.send('/.well-known/edgejwt/jwks.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  return (await res.json()) as { keys: Record<string, unknown>[] };
}

describe('origin assertion', () => {
  it('serves a public key set (no private members) at the default jwksPath, without a token', async () => {
    const jwks = await servedJwks();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwks.keys[0]!.d).toBeUndefined();
    expect(typeof jwks.keys[0]!.kid).toBe('string');
  });

  it(
    'origin_assertion_kid_is_rfc7638_thumbprint: a key without kid is named by its RFC 7638 thumbprint, as ' +
      'jose computes it',
    async () => {
      const served = (await servedJwks()).keys[0]!;
      const { kid, alg: _alg, use: _use, ...pub } = served;
      expect(kid).toBe(await jose.calculateJwkThumbprint(pub as jose.JWK));
    },
  );

  it('each forwarded request carries an assertion the origin verifies with edgejwt and with jose', async () => {
    const res = await g.send('/orders', bearer(await token(k.ed, { sub: 'alice', scope: 'read write', email: 'a@x' })));
    expect(res.status).toBe(200);
    const assertion = (await forwarded(res))['x-edgejwt-assertion']!;
    const jwks = await servedJwks();
    const v = createVerifier({
      algorithms: ['EdDSA'],
      jwks: createLocalJWKSet(jwks as never),
      issuer: GUARD,
      audience: ORIGIN_AUD,
      maxTokenAge: 60,
    });
    const { payload, header } = await v.verify(assertion);
    expect(payload).toMatchObject({ sub: 'alice', scope: 'read write', iss: GUARD, aud: ORIGIN_AUD });
    expect(payload.email).toBeUndefined();
    expect(payload.exp! - payload.iat!).toBe(60);
    expect(typeof payload.jti).toBe('string');
    expect(header.kid).toBe(jwks.keys[0]!.kid);
    const j = await jose.jwtVerify(assertion, jose.createLocalJWKSet(jwks as never), {
      issuer: GUARD,
      audience: ORIGIN_AUD,
    });
    expect(j.payload.sub).toBe('alice');
  });

  it('every assertion has its own jti (an origin can refuse replays), and an expired one is refused', async () => {
    const t = await token(k.ed, { sub: 'bob' });
    const a1 = (await forwarded(await g.send('/x', bearer(t))))['x-edgejwt-assertion']!;
    const a2 = (await forwarded(await g.send('/x', bearer(t))))['x-edgejwt-assertion']!;
    const jwks = createLocalJWKSet((await servedJwks()) as never);
    const v = (at: Date) =>
      createVerifier({
        algorithms: ['EdDSA'],
        jwks,
        issuer: GUARD,
        audience: ORIGIN_AUD,
        currentDate: at,
        cache: false,
      });
    const p1 = (await v(new Date()).verify(a1)).payload;
    const p2 = (await v(new Date()).verify(a2)).payload;
    expect(p1.jti).not.toBe(p2.jti);
    await expect(v(new Date((p1.exp! + 1) * 1000)).verify(a1)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  it('a client-sent assertion header never reaches the origin (public path, or replaced after verify)', async () => {
    const spoof = { 'x-edgejwt-assertion': 'forged.by.client' };
    const pub = await forwarded(await g.send('/health', { headers: spoof }));
    expect(pub['x-edgejwt-assertion']).toBeUndefined();
    const t = await token(k.ed, { sub: 'carol' });
    const auth = await forwarded(await g.send('/x', { headers: { ...spoof, authorization: `Bearer ${t}` } }));
    expect(auth['x-edgejwt-assertion']).not.toBe('forged.by.client');
    expect(auth['x-edgejwt-assertion']!.split('.')).toHaveLength(3);
  });

  it(
    'a client-sent assertion header in an underscore ' + 'spelling (X_Edgejwt_Assertion) never reaches the origin',
    async () => {
      const spoof = { X_Edgejwt_Assertion: 'replayed.by.client', 'x-edgejwt_assertion': 'replayed.by.client' };
      const pub = await forwarded(await g.send('/health', { headers: spoof }));
      expect(Object.values(pub)).not.toContain('replayed.by.client');
      const t = await token(k.ed, { sub: 'dave' });
      const auth = await forwarded(await g.send('/x', { headers: { ...spoof, authorization: `Bearer ${t}` } }));
      expect(Object.values(auth)).not.toContain('replayed.by.client');
      expect(auth['x-edgejwt-assertion']!.split('.')).toHaveLength(3);
    },
  );

  it('refused tokens get no assertion and never reach the origin', async () => {
    const before = g.net.calls.length;
    const res = await g.send('/x', bearer('a.b.c'));
    expect(res.status).toBe(401);
    expect(g.net.calls.length).toBe(before);
  });

  it('configuration mistakes name the setting', async () => {
    const cfg = (oa: Record<string, unknown>) => () =>
      parseConfig(baseConfig(k, { originAssertion: { keyBinding: 'K', ...oa } }));
    expect(cfg({ alg: 'HS256' })).toThrow(/originAssertion\.alg/);
    expect(cfg({ ttl: 0 })).toThrow(/originAssertion\.ttl/);
    expect(cfg({ header: 'X-Auth-Sub' })).toThrow(/originAssertion\.header/);
    expect(cfg({ claims: ['exp'] })).toThrow(/originAssertion\.claims/);
    expect(cfg({ extra: 1 })).toThrow(/originAssertion\.extra/);
    await expect(
      makeGuard(k, { config: baseConfig(k, { originAssertion: { keyBinding: 'MISSING' } }) }),
    ).rejects.toThrow(/originAssertion\.keyBinding/);
    await expect(
      makeGuard(k, {
        config: baseConfig(k, { originAssertion: { keyBinding: 'ASSERTION_KEY', alg: 'ES256' } }),
        env: { ASSERTION_KEY: privateJwk },
      }),
    ).rejects.toThrow(/originAssertion\.keyBinding/);
  });
});
