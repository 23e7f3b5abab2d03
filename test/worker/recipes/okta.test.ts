// Recipe: Okta (custom authorization server "default"). Access tokens: aud
// api://default, scp as an array, cid/uid; keys at /oauth2/default/v1/keys.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GuardConfigInput } from '../../../src/worker/config-input.js';
import { fakeProvider, nowS, randomB64u, recipeGuard, type FakeProvider } from './provider.js';

const ISS = 'https://dev-12345678.okta.com/oauth2/default';

// The documented config (docs/deploy.md, "Okta").
const config: GuardConfigInput = {
  issuers: [{ issuer: ISS, audience: 'api://default', algorithms: ['RS256'], jwksUrl: `${ISS}/v1/keys` }],
  rules: [{ pathPrefix: '/admin/', scopes: ['orders.admin'] }],
};

let idp: FakeProvider;
beforeAll(async () => {
  idp = await fakeProvider(randomB64u(32), (p) => ({
    [`${ISS}/v1/keys`]: { body: { keys: [p.jwk({ alg: 'RS256', use: 'sig' })] } },
  }));
});

function accessToken(extra: Record<string, unknown> = {}): Promise<string> {
  const t = nowS();
  return idp.sign({
    ver: 1,
    jti: `AT.${randomB64u(32)}`,
    iss: ISS,
    aud: 'api://default',
    iat: t,
    exp: t + 3600,
    cid: '0oa1b2c3d4e5f6g7h8i9',
    uid: '00u1a2b3c4d5e6f7g8h9',
    scp: ['openid', 'orders.read'],
    auth_time: t - 60,
    sub: 'alice@example.com',
    ...extra,
  });
}

describe('recipe: Okta', () => {
  it('an access token passes; scp (array) feeds the rules', async () => {
    const g = recipeGuard(config, idp);
    const ok = await g.send('/orders', { headers: { authorization: `Bearer ${await accessToken()}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-auth-sub']).toBe('alice@example.com');
    expect((await g.send('/admin/x', { headers: { authorization: `Bearer ${await accessToken()}` } })).status).toBe(
      403,
    );
    expect(
      (
        await g.send('/admin/x', {
          headers: { authorization: `Bearer ${await accessToken({ scp: ['orders.admin'] })}` },
        })
      ).status,
    ).toBe(200);
  });

  it("the org authorization server's tokens (other issuer) are refused", async () => {
    const g = recipeGuard(config, idp);
    expect(
      (
        await g.send('/orders', {
          headers: { authorization: `Bearer ${await accessToken({ iss: 'https://dev-12345678.okta.com' })}` },
        })
      ).status,
    ).toBe(401);
  });
});
