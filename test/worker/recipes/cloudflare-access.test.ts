// Recipe: Cloudflare Access. `cloudflareAccess: { team }` sets the issuer, the
// certs URL and RS256; the token comes from Cf-Access-Jwt-Assertion (then the
// CF_Authorization cookie); the AUD tag is required; service tokens (empty sub,
// common_name) pass and can be forwarded. Tokens and the certs document are
// shaped as Access sends them; served by the fake IdP on loopback.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/worker/config.js';
import type { GuardConfigInput } from '../../../src/worker/config-input.js';
import { fakeProvider, hex, nowS, recipeGuard, type FakeProvider } from './provider.js';

const TEAM = 'myteam';
const ISS = `https://${TEAM}.cloudflareaccess.com`;
const AUD_TAG = hex(32);

// The documented config (docs/deploy.md, "Cloudflare Access").
const config: GuardConfigInput = {
  issuers: [{ cloudflareAccess: { team: TEAM }, audience: AUD_TAG }],
  forwardClaims: { email: 'X-Auth-Email', sub: 'X-Auth-Sub', common_name: 'X-Auth-Service' },
};

let idp: FakeProvider;
beforeAll(async () => {
  idp = await fakeProvider(hex(32), (p) => {
    const cert = { kid: p.kid, cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' };
    // Access publishes two keys (current and next) plus the same keys as PEM certificates.
    const next = { kty: 'RSA', kid: hex(32), alg: 'RS256', use: 'sig', e: 'AQAB', n: p.jwk().n };
    return {
      [`${ISS}/cdn-cgi/access/certs`]: {
        body: { keys: [p.jwk({ alg: 'RS256', use: 'sig' }), next], public_cert: cert, public_certs: [cert] },
      },
    };
  });
});

function userToken(extra: Record<string, unknown> = {}): Promise<string> {
  const t = nowS();
  return idp.sign({
    aud: [AUD_TAG],
    email: 'alice@example.com',
    exp: t + 86_400,
    iat: t,
    nbf: t,
    iss: ISS,
    type: 'app',
    identity_nonce: 'b3JkaW5hcnlub25jZQ',
    sub: '7335d417-61da-459d-899c-0a01c76a2f94',
    country: 'GB',
    ...extra,
  });
}

function serviceToken(): Promise<string> {
  const t = nowS();
  return idp.sign({
    aud: [AUD_TAG],
    exp: t + 86_400,
    iat: t,
    nbf: t,
    iss: ISS,
    common_name: '4d4fe1a7aeb0b9b9f2c9d9c0d1f2e3a4.access',
    type: 'app',
    identity_nonce: '',
    sub: '',
  });
}

describe('recipe: Cloudflare Access', () => {
  it('a user token in Cf-Access-Jwt-Assertion passes, with the identity forwarded', async () => {
    const g = recipeGuard(config, idp);
    const r = await g.send('/app', { headers: { 'cf-access-jwt-assertion': await userToken() } });
    expect(r.status).toBe(200);
    expect(r.headers['x-auth-email']).toBe('alice@example.com');
    expect(await idp.hits(`${ISS}/cdn-cgi/access/certs`)).toBeGreaterThan(0);
  });

  it('the CF_Authorization cookie is read when the header is absent', async () => {
    const g = recipeGuard(config, idp);
    expect((await g.send('/app', { headers: { cookie: `CF_Authorization=${await userToken()}` } })).status).toBe(200);
  });

  it('a service token (empty sub, common_name) passes and common_name is forwardable', async () => {
    const g = recipeGuard(config, idp);
    const r = await g.send('/app', { headers: { 'cf-access-jwt-assertion': await serviceToken() } });
    expect(r.status).toBe(200);
    expect(r.headers['x-auth-service']).toBe('4d4fe1a7aeb0b9b9f2c9d9c0d1f2e3a4.access');
    expect(r.headers['x-auth-sub']).toBe('');
  });

  it("another Access application's token (other AUD tag) or another team's is refused", async () => {
    const g = recipeGuard(config, idp);
    expect(
      (await g.send('/app', { headers: { 'cf-access-jwt-assertion': await userToken({ aud: [hex(32)] }) } })).status,
    ).toBe(401);
    expect(
      (
        await g.send('/app', {
          headers: { 'cf-access-jwt-assertion': await userToken({ iss: 'https://otherteam.cloudflareaccess.com' }) },
        })
      ).status,
    ).toBe(401);
  });

  it('the AUD tag is required; the team name is checked; fixed settings cannot be overridden', () => {
    const at = (c: unknown): string => {
      try {
        parseConfig(c);
        return 'OK';
      } catch (e) {
        return (e as { setting: string }).setting;
      }
    };
    expect(at({ issuers: [{ cloudflareAccess: { team: TEAM } }] })).toBe('issuers[0].audience');
    expect(at({ issuers: [{ cloudflareAccess: { team: 'a.b' }, audience: AUD_TAG }] })).toBe(
      'issuers[0].cloudflareAccess.team',
    );
    expect(
      at({ issuers: [{ cloudflareAccess: { team: TEAM }, audience: AUD_TAG, jwksUrl: 'https://x.example.com' }] }),
    ).toBe('issuers[0].jwksUrl');
    const parsed = parseConfig(config);
    expect(parsed.issuers[0]!.issuer).toEqual([ISS]);
    expect(parsed.issuers[0]!.algorithms).toEqual(['RS256']);
    expect(parsed.issuers[0]!.source).toEqual({ kind: 'jwksUrl', url: `${ISS}/cdn-cgi/access/certs` });
    expect(parsed.tokenSources).toEqual([
      { header: 'Cf-Access-Jwt-Assertion' },
      { header: 'Authorization' },
      { cookie: 'CF_Authorization' },
    ]);
  });
});
