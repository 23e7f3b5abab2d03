// Recipe: Firebase Auth ID tokens: issuer https://securetoken.google.com/<project>,
// aud = the project id, keys from Google's securetoken service account.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GuardConfigInput } from '../../../src/worker/config-input.js';
import { fakeProvider, hex, nowS, recipeGuard, type FakeProvider } from './provider.js';

const PROJECT = 'my-project-1234';
const ISS = `https://securetoken.google.com/${PROJECT}`;
const JWKS = 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

// The documented config (docs/deploy.md, "Firebase Auth").
const config: GuardConfigInput = {
  issuers: [{ issuer: ISS, audience: PROJECT, algorithms: ['RS256'], jwksUrl: JWKS }],
  forwardClaims: { sub: 'X-Auth-Sub', email: 'X-Auth-Email' },
};

let idp: FakeProvider;
beforeAll(async () => {
  idp = await fakeProvider(hex(20), (p) => ({ [JWKS]: { body: { keys: [p.jwk({ alg: 'RS256', use: 'sig' })] } } }));
});

function idToken(extra: Record<string, unknown> = {}): Promise<string> {
  const t = nowS();
  const uid = 'kZ0nF1rEbAsEuId0123456789ab';
  return idp.sign(
    {
      name: 'Alice',
      iss: ISS,
      aud: PROJECT,
      auth_time: t - 10,
      user_id: uid,
      sub: uid,
      iat: t,
      exp: t + 3600,
      email: 'alice@example.com',
      email_verified: true,
      firebase: { identities: { email: ['alice@example.com'] }, sign_in_provider: 'password' },
      ...extra,
    },
    { typ: 'JWT' },
  );
}

describe('recipe: Firebase Auth', () => {
  it('an ID token passes with sub and email forwarded; the nested firebase claim is fine', async () => {
    const g = recipeGuard(config, idp);
    const r = await g.send('/me', { headers: { authorization: `Bearer ${await idToken()}` } });
    expect(r.status).toBe(200);
    expect(r.headers['x-auth-sub']).toBe('kZ0nF1rEbAsEuId0123456789ab');
  });

  it("another project's token is refused", async () => {
    const g = recipeGuard(config, idp);
    const other = await idToken({ aud: 'other-project', iss: 'https://securetoken.google.com/other-project' });
    expect((await g.send('/me', { headers: { authorization: `Bearer ${other}` } })).status).toBe(401);
    expect(
      (await g.send('/me', { headers: { authorization: `Bearer ${await idToken({ aud: 'other-project' })}` } })).status,
    ).toBe(401);
  });
});
