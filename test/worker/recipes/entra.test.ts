// Recipe: Microsoft Entra ID (v2 tokens). Single tenant: the tenant's v2 issuer.
// Multi-tenant: the common key set and an allow-list of tenants as the issuer
// list (plus `tid` in claims), since each tenant signs with its own issuer.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GuardConfigInput } from '../../../src/worker/config-input.js';
import { fakeProvider, nowS, randomB64u, recipeGuard, type FakeProvider } from './provider.js';

const TENANT_A = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const TENANT_B = 'f8cdef31-a31e-4b4a-93e4-5f571e91255a';
const OTHER = '9188040d-6c67-4c5b-b112-36a304b66dad';
const CLIENT = '6e74172b-be56-4843-9ff4-e66a39bb12e3';
const issuerOf = (tid: string): string => `https://login.microsoftonline.com/${tid}/v2.0`;
const KEYS = 'https://login.microsoftonline.com/common/discovery/v2.0/keys';

// The documented multi-tenant config (docs/deploy.md, "Microsoft Entra ID").
const config: GuardConfigInput = {
  issuers: [
    {
      issuer: [issuerOf(TENANT_A), issuerOf(TENANT_B)],
      audience: CLIENT,
      claims: { tid: [TENANT_A, TENANT_B] },
      algorithms: ['RS256'],
      jwksUrl: KEYS,
    },
  ],
  rules: [{ pathPrefix: '/admin/', claims: { roles: 'Orders.Admin' } }],
  forwardClaims: { oid: 'X-Auth-Oid', tid: 'X-Auth-Tenant' },
};

let idp: FakeProvider;
beforeAll(async () => {
  // Entra's keys have no alg; each carries an issuer template and an x5c chain.
  idp = await fakeProvider(randomB64u(20).slice(0, 27), (p) => ({
    [KEYS]: {
      body: {
        keys: [
          p.jwk({
            use: 'sig',
            x5t: p.kid,
            issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
            x5c: [randomB64u(700)],
          }),
        ],
      },
    },
  }));
});

function accessToken(tid: string, extra: Record<string, unknown> = {}): Promise<string> {
  const t = nowS();
  return idp.sign(
    {
      aud: CLIENT,
      iss: issuerOf(tid),
      iat: t,
      nbf: t,
      exp: t + 3900,
      aio: randomB64u(40),
      azp: 'c44b4083-3bb0-49c1-b47d-974e53cbdf3c',
      azpacr: '0',
      name: 'Alice',
      oid: '00000000-0000-0000-66f3-3332eca7ea81',
      preferred_username: 'alice@contoso.com',
      rh: '0.AXEA',
      scp: 'access_as_user',
      sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      tid,
      uti: randomB64u(16),
      ver: '2.0',
      ...extra,
    },
    { typ: 'JWT' },
  );
}

describe('recipe: Microsoft Entra ID', () => {
  it('tokens of each allowed tenant pass, with oid and tid forwarded', async () => {
    const g = recipeGuard(config, idp);
    for (const tid of [TENANT_A, TENANT_B]) {
      const r = await g.send('/orders', { headers: { authorization: `Bearer ${await accessToken(tid)}` } });
      expect(r.status).toBe(200);
      expect(r.headers['x-auth-tenant']).toBe(tid);
    }
  });

  it('another tenant is refused, even signed by the common keys', async () => {
    const g = recipeGuard(config, idp);
    expect((await g.send('/orders', { headers: { authorization: `Bearer ${await accessToken(OTHER)}` } })).status).toBe(
      401,
    );
    // Allowed issuer but a foreign tid claim: refused by the claims check.
    expect(
      (await g.send('/orders', { headers: { authorization: `Bearer ${await accessToken(TENANT_A, { tid: OTHER })}` } }))
        .status,
    ).toBe(401);
  });

  it('app roles feed rules; a v1 token (sts.windows.net issuer) is refused', async () => {
    const g = recipeGuard(config, idp);
    expect(
      (await g.send('/admin/x', { headers: { authorization: `Bearer ${await accessToken(TENANT_A)}` } })).status,
    ).toBe(403);
    expect(
      (
        await g.send('/admin/x', {
          headers: { authorization: `Bearer ${await accessToken(TENANT_A, { roles: ['Orders.Admin'] })}` },
        })
      ).status,
    ).toBe(200);
    const v1 = await accessToken(TENANT_A, { iss: `https://sts.windows.net/${TENANT_A}/`, ver: '1.0' });
    expect((await g.send('/x', { headers: { authorization: `Bearer ${v1}` } })).status).toBe(401);
  });

  it(
    'entra_id_token_needs_scope_rule: an ID token of the same app registration passes unless every path ' +
      'requires a scope (docs/deploy.md warns)',
    async () => {
      // An ID token issued to the API's own registration: same issuer, aud = the client id, typ JWT, no scp or roles.
      const t = nowS();
      const idToken = await idp.sign(
        {
          aud: CLIENT,
          iss: issuerOf(TENANT_A),
          iat: t,
          nbf: t,
          exp: t + 3600,
          aio: randomB64u(40),
          name: 'Alice',
          nonce: randomB64u(12),
          oid: '00000000-0000-0000-66f3-3332eca7ea81',
          preferred_username: 'alice@contoso.com',
          rh: '0.AXEA',
          sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
          tid: TENANT_A,
          uti: randomB64u(16),
          ver: '2.0',
        },
        { typ: 'JWT' },
      );
      const auth = (tk: string): RequestInit => ({ headers: { authorization: `Bearer ${tk}` } });
      expect((await recipeGuard(config, idp).send('/orders', auth(idToken))).status).toBe(200);
      // The documented remedy: a last rule that requires the API's scope everywhere.
      const scoped = recipeGuard(
        { ...config, rules: [...config.rules!, { pathPrefix: '/', scopes: ['access_as_user'] }] },
        idp,
      );
      expect((await scoped.send('/orders', auth(idToken))).status).toBe(403);
      expect((await scoped.send('/orders', auth(await accessToken(TENANT_A)))).status).toBe(200);
    },
  );
});
