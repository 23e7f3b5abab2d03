// Binding tokens to this API: `audience`, or `claims` instead (Cognito access
// tokens carry no aud), never neither; `issuer` may list several spellings.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/worker/config.js';
import { JWKS_URL, bearer, demoKeys, jwksOf, makeGuard, mockNet, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

const ISS = 'https://id.example.com';

describe('audience alternatives', () => {
  it('claims instead of audience: a token without aud passes when the claims hold', async () => {
    const g = await makeGuard(k, {
      config: {
        issuers: [
          {
            issuer: ISS,
            claims: { client_id: ['abc', 'def'], token_use: 'access' },
            algorithms: ['EdDSA'],
            jwksUrl: JWKS_URL,
          },
        ],
        origin: 'https://origin.example.com',
      },
    });
    expect(
      (await g.send('/x', bearer(await token(k.ed, { aud: undefined, client_id: 'def', token_use: 'access' })))).status,
    ).toBe(200);
    expect(
      (await g.send('/x', bearer(await token(k.ed, { aud: undefined, client_id: 'other', token_use: 'access' }))))
        .status,
    ).toBe(401);
    expect(
      (await g.send('/x', bearer(await token(k.ed, { aud: undefined, client_id: 'abc', token_use: 'id' })))).status,
    ).toBe(401);
    expect((await g.send('/x', bearer(await token(k.ed, { aud: undefined, client_id: 'abc' })))).status).toBe(401);
    expect(g.logs.some((l) => l.includes('"code":"claim_mismatch"') && l.includes('"claim":"token_use"'))).toBe(true);
  });

  it('audience and claims together: both must hold', async () => {
    const g = await makeGuard(k, {
      config: {
        issuers: [{ issuer: ISS, audience: 'api', claims: { azp: 'web' }, algorithms: ['EdDSA'], jwksUrl: JWKS_URL }],
        origin: 'https://origin.example.com',
      },
    });
    expect((await g.send('/x', bearer(await token(k.ed, { azp: 'web' })))).status).toBe(200);
    expect((await g.send('/x', bearer(await token(k.ed, { azp: 'web', aud: 'other' })))).status).toBe(401);
    expect((await g.send('/x', bearer(await token(k.ed, { azp: 'cli' })))).status).toBe(401);
  });

  it('neither audience nor claims is a configuration error, never "any audience"', () => {
    expect(() => parseConfig({ issuers: [{ issuer: ISS, algorithms: ['EdDSA'], jwksUrl: JWKS_URL }] })).toThrow(
      /issuers\[0\]\.audience/,
    );
    expect(() =>
      parseConfig({ issuers: [{ issuer: ISS, claims: {}, algorithms: ['EdDSA'], jwksUrl: JWKS_URL }] }),
    ).toThrow(/issuers\[0\]\.audience/);
    expect(() =>
      parseConfig({ issuers: [{ issuer: ISS, claims: { client_id: [] }, algorithms: ['EdDSA'], jwksUrl: JWKS_URL }] }),
    ).toThrow(/issuers\[0\]\.claims\.client_id/);
  });

  it('an issuer list accepts each spelling and nothing else', async () => {
    const net = mockNet(jwksOf(k.ed, k.rs));
    const g = await makeGuard(k, {
      net,
      config: {
        issuers: [{ issuer: ['accounts.example.com', ISS], audience: 'api', algorithms: ['EdDSA'], jwksUrl: JWKS_URL }],
        origin: 'https://origin.example.com',
      },
    });
    expect((await g.send('/x', bearer(await token(k.ed, { iss: 'accounts.example.com' })))).status).toBe(200);
    expect((await g.send('/x', bearer(await token(k.ed, { iss: ISS })))).status).toBe(200);
    expect((await g.send('/x', bearer(await token(k.ed, { iss: 'https://accounts.example.com' })))).status).toBe(401);
    // One key set for both spellings.
    expect(net.jwksCalls()).toBe(1);
  });

  it('the same issuer in two entries is refused', () => {
    expect(() =>
      parseConfig({
        issuers: [
          { issuer: ['a', 'b'], audience: 'x', algorithms: ['EdDSA'], jwksUrl: JWKS_URL },
          { issuer: 'b', audience: 'x', algorithms: ['EdDSA'], jwksUrl: JWKS_URL },
        ],
      }),
    ).toThrow(/issuers\[1\]\.issuer/);
  });
});
