// Recipe: AWS Cognito user pools. Access tokens have no aud: they are bound by
// client_id and token_use in `claims`. ID tokens carry aud = the app client id.
// Cognito kids are base64 (with + / =), keys at <issuer>/.well-known/jwks.json.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GuardConfigInput } from '../../../src/worker/config-input.js';
import { fakeProvider, nowS, recipeGuard, type FakeProvider } from './provider.js';

const POOL = 'us-east-1_AbCdEfGhI';
const ISS = `https://cognito-idp.us-east-1.amazonaws.com/${POOL}`;
const CLIENT = '1example23456789abcdefghij';

// The documented configs (docs/deploy.md, "AWS Cognito"): an API takes access tokens...
const accessConfig: GuardConfigInput = {
  issuers: [
    {
      issuer: ISS,
      claims: { client_id: [CLIENT], token_use: 'access' },
      algorithms: ['RS256'],
      jwksUrl: `${ISS}/.well-known/jwks.json`,
    },
  ],
  rules: [{ pathPrefix: '/orders/', scopes: ['orders/read'] }],
  forwardClaims: { sub: 'X-Auth-Sub', username: 'X-Auth-User' },
};
// ...or ID tokens.
const idConfig: GuardConfigInput = {
  issuers: [
    {
      issuer: ISS,
      audience: CLIENT,
      claims: { token_use: 'id' },
      algorithms: ['RS256'],
      jwksUrl: `${ISS}/.well-known/jwks.json`,
    },
  ],
};

let idp: FakeProvider;
beforeAll(async () => {
  idp = await fakeProvider('a1b2C3d4+E5f6G7h8/I9j0K1l2M3n4O5p6Q7r8S9t0=', (p) => ({
    [`${ISS}/.well-known/jwks.json`]: { body: { keys: [p.jwk({ alg: 'RS256', use: 'sig' })] } },
  }));
});

const SUB = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';

function accessToken(extra: Record<string, unknown> = {}): Promise<string> {
  const t = nowS();
  return idp.sign({
    sub: SUB,
    'cognito:groups': ['admins'],
    iss: ISS,
    version: 2,
    client_id: CLIENT,
    origin_jti: crypto.randomUUID(),
    event_id: crypto.randomUUID(),
    token_use: 'access',
    scope: 'orders/read aws.cognito.signin.user.admin',
    auth_time: t,
    exp: t + 3600,
    iat: t,
    jti: crypto.randomUUID(),
    username: 'alice',
    ...extra,
  });
}

function idToken(extra: Record<string, unknown> = {}): Promise<string> {
  const t = nowS();
  return idp.sign({
    sub: SUB,
    email_verified: true,
    iss: ISS,
    'cognito:username': 'alice',
    origin_jti: crypto.randomUUID(),
    aud: CLIENT,
    event_id: crypto.randomUUID(),
    token_use: 'id',
    auth_time: t,
    exp: t + 3600,
    iat: t,
    jti: crypto.randomUUID(),
    email: 'alice@example.com',
    ...extra,
  });
}

describe('recipe: AWS Cognito', () => {
  it('access tokens (no aud) pass by client_id and token_use; a kid with + / = is found', async () => {
    const g = recipeGuard(accessConfig, idp);
    const r = await g.send('/orders/1', { headers: { authorization: `Bearer ${await accessToken()}` } });
    expect(r.status).toBe(200);
    expect(r.headers['x-auth-user']).toBe('alice');
  });

  it('access config: an ID token, another app client, a missing scope are refused', async () => {
    const g = recipeGuard(accessConfig, idp);
    expect((await g.send('/x', { headers: { authorization: `Bearer ${await idToken()}` } })).status).toBe(401);
    expect(
      (await g.send('/x', { headers: { authorization: `Bearer ${await accessToken({ client_id: 'other-client' })}` } }))
        .status,
    ).toBe(401);
    expect(
      (
        await g.send('/orders/1', {
          headers: { authorization: `Bearer ${await accessToken({ scope: 'aws.cognito.signin.user.admin' })}` },
        })
      ).status,
    ).toBe(403);
  });

  it('ID-token config: ID tokens pass, access tokens (no aud) do not', async () => {
    const g = recipeGuard(idConfig, idp);
    expect((await g.send('/x', { headers: { authorization: `Bearer ${await idToken()}` } })).status).toBe(200);
    expect((await g.send('/x', { headers: { authorization: `Bearer ${await accessToken()}` } })).status).toBe(401);
  });
});
