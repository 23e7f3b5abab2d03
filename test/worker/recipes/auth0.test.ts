// Recipe: Auth0. The issuer ends with a slash; API access tokens carry the API
// identifier and /userinfo in aud, scope as a string, azp; discovery finds the
// JWKS (with x5c/x5t members). Served by the fake IdP on loopback.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GuardConfigInput } from '../../../src/worker/config-input.js';
import { fakeProvider, nowS, randomB64u, recipeGuard, type FakeProvider } from './provider.js';

const ISS = 'https://example-tenant.us.auth0.com/';
const API = 'https://api.example.com';

// The documented config (docs/deploy.md, "Auth0").
const config: GuardConfigInput = {
  issuers: [{ issuer: ISS, audience: API, algorithms: ['RS256'] }],
  rules: [{ pathPrefix: '/orders/', methods: ['POST'], scopes: ['write:orders'] }],
};

let idp: FakeProvider;
beforeAll(async () => {
  idp = await fakeProvider(randomB64u(16), (p) => ({
    [`${ISS}.well-known/openid-configuration`]: {
      body: {
        issuer: ISS,
        authorization_endpoint: `${ISS}authorize`,
        token_endpoint: `${ISS}oauth/token`,
        jwks_uri: `${ISS}.well-known/jwks.json`,
        id_token_signing_alg_values_supported: ['HS256', 'RS256', 'PS256'],
      },
    },
    [`${ISS}.well-known/jwks.json`]: {
      body: { keys: [p.jwk({ use: 'sig', alg: 'RS256', x5t: randomB64u(20), x5c: [randomB64u(700)] })] },
    },
  }));
});

function accessToken(extra: Record<string, unknown> = {}): Promise<string> {
  const t = nowS();
  return idp.sign(
    {
      iss: ISS,
      sub: 'auth0|64f1c2a9e1b2c3d4e5f6a7b8',
      aud: [API, `${ISS}userinfo`],
      iat: t,
      exp: t + 86_400,
      scope: 'openid profile email read:orders write:orders',
      azp: 'Xq7pGk2mN4sT9vB1cD3fH5jK',
      ...extra,
    },
    { typ: 'JWT' },
  );
}

describe('recipe: Auth0', () => {
  it('an API access token passes (trailing-slash issuer found through discovery)', async () => {
    const g = recipeGuard(config, idp);
    const r = await g.send('/orders/1', {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessToken()}` },
    });
    expect(r.status).toBe(200);
    expect(r.headers['x-auth-sub']).toBe('auth0|64f1c2a9e1b2c3d4e5f6a7b8');
    expect(await idp.hits(`${ISS}.well-known/openid-configuration`)).toBe(1);
  });

  it('an ID token (aud = client id) and a token without the scope are refused', async () => {
    const g = recipeGuard(config, idp);
    expect(
      (
        await g.send('/x', {
          headers: { authorization: `Bearer ${await accessToken({ aud: 'Xq7pGk2mN4sT9vB1cD3fH5jK' })}` },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await g.send('/orders/1', {
          method: 'POST',
          headers: { authorization: `Bearer ${await accessToken({ scope: 'read:orders' })}` },
        })
      ).status,
    ).toBe(403);
  });

  it('the issuer without its trailing slash is another issuer', async () => {
    const g = recipeGuard(config, idp);
    expect(
      (await g.send('/x', { headers: { authorization: `Bearer ${await accessToken({ iss: ISS.slice(0, -1) })}` } }))
        .status,
    ).toBe(401);
  });

  it(
    'auth0_rfc9068_typ_refuses_id_tokens: with the RFC 9068 profile and "typ": "at+jwt", a token typed JWT is ' +
      'refused even with the right aud',
    async () => {
      const g = recipeGuard({ ...config, issuers: [{ ...config.issuers[0]!, typ: 'at+jwt' }] }, idp);
      const t = nowS();
      const rfc9068 = await idp.sign(
        {
          iss: ISS,
          sub: 'auth0|64f1c2a9e1b2c3d4e5f6a7b8',
          aud: API,
          iat: t,
          exp: t + 86_400,
          scope: 'write:orders',
          client_id: 'Xq7pGk2mN4sT9vB1cD3fH5jK',
          jti: randomB64u(16),
        },
        { typ: 'at+jwt' },
      );
      expect(
        (await g.send('/orders/1', { method: 'POST', headers: { authorization: `Bearer ${rfc9068}` } })).status,
      ).toBe(200);
      // An ID token (typ JWT) whose aud was made to match, and a default-profile access token, are both typed JWT.
      expect(
        (await g.send('/x', { headers: { authorization: `Bearer ${await accessToken({ aud: API, nonce: 'n' })}` } }))
          .status,
      ).toBe(401);
    },
  );
});
