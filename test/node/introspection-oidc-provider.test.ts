// The introspection client (src/introspection/) against a real authorization server on
// loopback: panva's oidc-provider issues opaque access tokens for one resource (RFC 8707)
// by client_credentials, answers RFC 7662 introspection for the guard's own client
// (client_secret_basic, with a secret that needs form-encoding), and revokes (RFC 7009).
// oauth4webapi is the client that gets and revokes the tokens. Nothing is faked here.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkClaims, type ClaimPolicy } from '../../src/claims.js';
import { createIntrospector } from '../../src/introspection/client.js';
import { parseIntrospection } from '../../src/introspection/config.js';
import { IntrospectionError } from '../../src/introspection/error.js';
import { looksLikeJwt } from '../../src/introspection/shape.js';
import { checkStepUp } from '../../src/resource/step-up.js';
import { insecure, introspectionProvider, startProvider, type RunningProvider } from './oidc-provider-server.js';

const OPAQUE = 'https://mcp.example.com/mcp';
const JWT_RESOURCE = 'https://jwt.example.com/';
const CLIENT = { client_id: 'svc-1', client_secret: 'a-long-enough-client-secret-for-the-test' };
/** The guard's own client at the AS: a secret with characters client_secret_basic must form-encode. */
const GUARD = { client_id: 'guard:rs', client_secret: 'guard secret+with:reserved&chars/%41' };

let op: RunningProvider;
let issuer: string;
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  // The guard's client only introspects; only it may read introspection answers.
  op = await startProvider(() =>
    introspectionProvider(CLIENT, GUARD, OPAQUE, (resource) => {
      const scope = 'tools:read tools:call';
      if (resource === OPAQUE) return { scope, audience: OPAQUE, accessTokenFormat: 'opaque' };
      if (resource !== JWT_RESOURCE) throw new Error('unknown resource');
      return { scope, audience: JWT_RESOURCE, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
    }),
  );
  ({ issuer, as } = op);
}, 30_000);

afterAll(() => op?.close());

async function accessToken(resource: string, scope = 'tools:read'): Promise<string> {
  const client = { client_id: CLIENT.client_id };
  const auth = oauth.ClientSecretBasic(CLIENT.client_secret);
  const params = new URLSearchParams({ resource, scope });
  const res = await oauth.clientCredentialsGrantRequest(as, client, auth, params, insecure);
  return (await oauth.processClientCredentialsResponse(as, client, res)).access_token;
}

/** The guard's path: the config section checked as the stage will check it, then the client made from it. */
function introspector(overrides: { secret?: string; endpoint?: string; cacheMs?: number } = {}) {
  const section = {
    endpoint: overrides.endpoint ?? as.introspection_endpoint,
    clientId: GUARD.client_id,
    secretBinding: 'AS_INTROSPECTION_SECRET',
    cacheMs: overrides.cacheMs ?? 30_000,
  };
  const settings = parseIntrospection(section, 'issuers[0]')!;
  return createIntrospector({ ...settings, issuer, clientSecret: overrides.secret ?? GUARD.client_secret });
}

async function refusal(p: Promise<unknown>): Promise<IntrospectionError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(IntrospectionError);
  return e as IntrospectionError;
}

describe('oidc-provider introspection (RFC 7662) end to end', () => {
  it('oidc_provider_opaque_token_introspected_active_with_jwt_claims', async () => {
    const token = await accessToken(OPAQUE, 'tools:read tools:call');
    expect(looksLikeJwt(token)).toBe(false);
    const v = await introspector().introspect(token);
    expect(v.active).toBe(true);
    if (!v.active) return;
    const scope = 'tools:read tools:call';
    expect(v.claims).toMatchObject({ iss: issuer, aud: OPAQUE, client_id: CLIENT.client_id, scope });
    expect(v.claims.token_type).toBe('Bearer');
    expect(typeof v.claims.exp).toBe('number');
    // A client-credentials token names no subject.
    expect(v.claims.sub).toBeUndefined();
    // The claim checks a JWT goes through accept it as they would the same JWT payload.
    const policy: ClaimPolicy = {
      ...{ issuer: new Set([issuer]), audience: new Set([OPAQUE]), subject: undefined, typ: undefined },
      clockTolerance: 0,
      ...{ maxTokenAge: undefined, requiredClaims: [], requireExp: true, profile: undefined },
    };
    const now = Date.now() / 1000;
    const claims = v.claims as Record<string, unknown>;
    expect(() => checkClaims(claims, { alg: 'none' }, policy, now)).not.toThrow();
    const elsewhere = { ...policy, audience: new Set([JWT_RESOURCE]) };
    expect(() => checkClaims(claims, { alg: 'none' }, elsewhere, now)).toThrow(/aud/);
    // No user authentication behind it: a step-up rule refuses it with its challenge.
    expect(checkStepUp(v.claims, { acr: ['mfa'] }, now)).toEqual({ ok: false, acrValues: ['mfa'], maxAge: undefined });
  });

  it('oidc_provider_jwt_access_token_is_never_introspected', async () => {
    expect(looksLikeJwt(await accessToken(JWT_RESOURCE))).toBe(true);
  });

  it('oidc_provider_revoked_token_inactive_after_cacheMs', async () => {
    const token = await accessToken(OPAQUE);
    const intro = introspector({ cacheMs: 400 });
    expect((await intro.introspect(token)).active).toBe(true);
    const auth = oauth.ClientSecretBasic(CLIENT.client_secret);
    const res = await oauth.revocationRequest(as, { client_id: CLIENT.client_id }, auth, token, insecure);
    await oauth.processRevocationResponse(res);
    // Inside cacheMs the cached verdict stands (the documented window a revocation takes)...
    expect(intro.cached(token)?.active).toBe(true);
    // ...and once it passes, the server's answer is the verdict.
    await new Promise((r) => setTimeout(r, 450));
    expect(intro.cached(token)).toBeUndefined();
    expect(await intro.introspect(token)).toEqual({ active: false });
    // A fresh client (another isolate) sees the revocation at once.
    expect(await introspector().introspect(token)).toEqual({ active: false });
  });

  it('oidc_provider_unknown_token_inactive', async () => {
    expect(await introspector().introspect('x'.repeat(43))).toEqual({ active: false });
  });

  it('oidc_provider_wrong_client_secret_is_server_error', async () => {
    const token = await accessToken(OPAQUE);
    const err = await refusal(introspector({ secret: 'not-the-secret' }).introspect(token));
    expect(err.code).toBe('ERR_INTROSPECTION_FAILED');
    expect(err.message).toContain('HTTP status 401 (client credentials refused)');
    expect(err.message).not.toContain(token);
  });

  it('oidc_provider_endpoint_down_is_server_error', async () => {
    // A port that was just listening and is closed now: connection refused.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const token = await accessToken(OPAQUE);
    const endpoint = `http://127.0.0.1:${port}/token/introspection`;
    const err = await refusal(introspector({ endpoint }).introspect(token));
    expect(err.code).toBe('ERR_INTROSPECTION_FAILED');
    expect(err.message).toContain('network error');
  });
});
