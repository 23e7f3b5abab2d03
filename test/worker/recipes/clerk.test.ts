// Recipe: Clerk session tokens. They carry no aud: the `azp` claim (the origin
// of your frontend) binds them, as Clerk's docs ask you to check. Keys at
// <frontend API>/.well-known/jwks.json; kids start with ins_. Session tokens
// live 60 s, so a clock tolerance matters.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GuardConfigInput } from '../../../src/worker/config-input.js';
import { fakeProvider, nowS, recipeGuard, type FakeProvider } from './provider.js';

const ISS = 'https://clerk.example.com';

// The documented config (docs/deploy.md, "Clerk").
const config: GuardConfigInput = {
  issuers: [
    {
      issuer: ISS,
      claims: { azp: ['https://app.example.com', 'https://www.example.com'] },
      algorithms: ['RS256'],
      jwksUrl: `${ISS}/.well-known/jwks.json`,
    },
  ],
  tokenSources: [{ header: 'Authorization' }, { cookie: '__session' }],
  clockTolerance: 5,
};

let idp: FakeProvider;
beforeAll(async () => {
  idp = await fakeProvider('ins_2abcDEFghiJKLmnoPQRstuVWXyz1', (p) => ({
    [`${ISS}/.well-known/jwks.json`]: { body: { keys: [p.jwk({ use: 'sig', alg: 'RS256' })] } },
  }));
});

function sessionToken(extra: Record<string, unknown> = {}): Promise<string> {
  const t = nowS();
  return idp.sign(
    {
      azp: 'https://app.example.com',
      exp: t + 60,
      fva: [0, -1],
      iat: t,
      iss: ISS,
      nbf: t - 10,
      sid: 'sess_2abcDEFghiJKLmnoPQRstuVWXyz',
      sub: 'user_2abcDEFghiJKLmnoPQRstuVWXy',
      v: 2,
      ...extra,
    },
    { typ: 'JWT' },
  );
}

describe('recipe: Clerk', () => {
  it('a session token from the Authorization header or the __session cookie passes', async () => {
    const g = recipeGuard(config, idp);
    const t = await sessionToken();
    expect((await g.send('/me', { headers: { authorization: `Bearer ${t}` } })).status).toBe(200);
    const r = await g.send('/me', { headers: { cookie: `__client_uat=1700000000; __session=${t}` } });
    expect(r.status).toBe(200);
    expect(r.headers['x-auth-sub']).toBe('user_2abcDEFghiJKLmnoPQRstuVWXy');
  });

  it('azp from another origin, or none, is refused', async () => {
    const g = recipeGuard(config, idp);
    expect(
      (
        await g.send('/me', {
          headers: { authorization: `Bearer ${await sessionToken({ azp: 'https://evil.example.com' })}` },
        })
      ).status,
    ).toBe(401);
    expect(
      (await g.send('/me', { headers: { authorization: `Bearer ${await sessionToken({ azp: undefined })}` } })).status,
    ).toBe(401);
  });
});
