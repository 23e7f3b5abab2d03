// Recipe: Google ID tokens. Google signs with either issuer spelling
// (https://accounts.google.com and accounts.google.com): both are listed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GuardConfigInput } from '../../../src/worker/config-input.js';
import { fakeProvider, hex, nowS, randomB64u, recipeGuard, type FakeProvider } from './provider.js';

const CLIENT = '1234567890-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com';
const CERTS = 'https://www.googleapis.com/oauth2/v3/certs';

// The documented config (docs/deploy.md, "Google").
const config: GuardConfigInput = {
  issuers: [
    {
      issuer: ['https://accounts.google.com', 'accounts.google.com'],
      audience: CLIENT,
      algorithms: ['RS256'],
      jwksUrl: CERTS,
    },
  ],
  rules: [{ pathPrefix: '/', claims: { email_verified: true, hd: 'example.com' } }],
  forwardClaims: { sub: 'X-Auth-Sub', email: 'X-Auth-Email' },
};

let idp: FakeProvider;
beforeAll(async () => {
  idp = await fakeProvider(hex(20), (p) => ({ [CERTS]: { body: { keys: [p.jwk({ alg: 'RS256', use: 'sig' })] } } }));
});

function idToken(extra: Record<string, unknown> = {}): Promise<string> {
  const t = nowS();
  return idp.sign(
    {
      iss: 'https://accounts.google.com',
      azp: CLIENT,
      aud: CLIENT,
      sub: '110169484474386276334',
      hd: 'example.com',
      email: 'alice@example.com',
      email_verified: true,
      at_hash: randomB64u(16),
      name: 'Alice',
      iat: t,
      exp: t + 3599,
      ...extra,
    },
    { typ: 'JWT' },
  );
}

describe('recipe: Google', () => {
  it('both issuer spellings pass', async () => {
    const g = recipeGuard(config, idp);
    for (const iss of ['https://accounts.google.com', 'accounts.google.com']) {
      const r = await g.send('/me', { headers: { authorization: `Bearer ${await idToken({ iss })}` } });
      expect(r.status).toBe(200);
      expect(r.headers['x-auth-email']).toBe('alice@example.com');
    }
  });

  it("another app's token, an unverified email or another domain are refused", async () => {
    const g = recipeGuard(config, idp);
    expect(
      (
        await g.send('/me', {
          headers: { authorization: `Bearer ${await idToken({ aud: 'other.apps.googleusercontent.com' })}` },
        })
      ).status,
    ).toBe(401);
    expect(
      (await g.send('/me', { headers: { authorization: `Bearer ${await idToken({ email_verified: false })}` } }))
        .status,
    ).toBe(403);
    expect(
      (
        await g.send('/me', {
          headers: { authorization: `Bearer ${await idToken({ hd: undefined, email: 'eve@gmail.com' })}` },
        })
      ).status,
    ).toBe(403);
  });
});
