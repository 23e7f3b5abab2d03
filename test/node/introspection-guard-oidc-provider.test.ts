// The guard in Node (createGuard with every stage) in front of an origin on loopback, with
// panva's oidc-provider as the authorization server: it issues opaque access tokens for one
// resource (RFC 8707) by client_credentials, answers RFC 7662 introspection for the guard's
// own client, and revokes (RFC 7009). oauth4webapi gets and revokes the tokens. Nothing is faked:
// the guard introspects each opaque token at the provider and checks the answer as a JWT's claims.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuard, defaultStages } from '../../src/worker/api.js';
import { insecure, introspectionProvider, startProvider, type RunningProvider } from './oidc-provider-server.js';

const MCP = 'https://mcp.example.com/mcp';
const OTHER = 'https://other.example.com/';
const CLIENT = { client_id: 'svc-1', client_secret: 'a-long-enough-client-secret-for-the-test' };
const GUARD = { client_id: 'guard-rs', client_secret: 'guard secret+with:reserved&chars' };
const ctx = { waitUntil: (p: Promise<unknown>) => void p.catch(() => undefined) };

let op: RunningProvider;
let as: oauth.AuthorizationServer;
let origin: Server;
let originUrl: string;
const seen: { url: string; sub: string | undefined; client: string | undefined }[] = [];

beforeAll(async () => {
  op = await startProvider(() =>
    introspectionProvider(CLIENT, GUARD, MCP, (resource) => {
      if (resource !== MCP && resource !== OTHER) throw new Error('unknown resource');
      return { scope: 'tools:read tools:call', audience: resource, accessTokenFormat: 'opaque' };
    }),
  );
  as = op.as;
  origin = createServer((req, res) => {
    const h = (n: string) => (req.headers[n] as string | undefined) ?? undefined;
    seen.push({ url: req.url ?? '', sub: h('x-auth-sub'), client: h('x-client') });
    res.end('{"origin":true}');
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  op?.close();
  origin?.closeAllConnections();
  await new Promise((resolve) => origin?.close(resolve));
});

async function accessToken(resource: string, scope: string): Promise<string> {
  const client = { client_id: CLIENT.client_id };
  const auth = oauth.ClientSecretBasic(CLIENT.client_secret);
  const params = new URLSearchParams({ resource, scope });
  const res = await oauth.clientCredentialsGrantRequest(as, client, auth, params, insecure);
  return (await oauth.processClientCredentialsResponse(as, client, res)).access_token;
}

/** A guard for the MCP resource: its id is the audience (RFC 8707); /tools/call needs the tools:call scope. */
function guardWith(opts: { cacheMs?: number; endpoint?: string; secret?: string | undefined } = {}) {
  const logs: string[] = [];
  const config = {
    issuers: [
      {
        issuer: op.issuer,
        algorithms: ['RS256'],
        jwksUrl: as.jwks_uri!,
        introspection: {
          endpoint: opts.endpoint ?? as.introspection_endpoint!,
          clientId: GUARD.client_id,
          secretBinding: 'AS_SECRET',
          cacheMs: opts.cacheMs ?? 30_000,
        },
      },
    ],
    resource: { id: MCP },
    rules: [{ pathPrefix: '/tools/call', scopes: ['tools:call'] }],
    forwardClaims: { sub: 'X-Auth-Sub', client_id: 'X-Client' },
    origin: originUrl,
  };
  const guard = createGuard(config as never, { stages: defaultStages, log: (l) => logs.push(l) });
  const env = 'secret' in opts ? { AS_SECRET: opts.secret } : { AS_SECRET: GUARD.client_secret };
  const send = (token: string, path = '/mcp') => {
    const request = new Request(`https://mcp.example.com${path}`, { headers: { authorization: `Bearer ${token}` } });
    return guard.fetch(request, env as never, ctx);
  };
  const code = (status: number) => {
    const line = logs.filter((l) => l.includes(`"status":${status}`)).at(-1) ?? '{}';
    return (JSON.parse(line) as { code?: string }).code;
  };
  return { send, logs, code };
}

describe('the guard introspects opaque tokens at oidc-provider (RFC 7662)', () => {
  it('guard_passes_opaque_token_for_its_resource_and_forwards_no_subject', async () => {
    const g = guardWith();
    const token = await accessToken(MCP, 'tools:read tools:call');
    const res = await g.send(token, '/tools/call');
    expect(res.status).toBe(200);
    // A client-credentials answer has no sub: no subject header; client_id travels as configured.
    expect(seen.at(-1)).toEqual({ url: '/tools/call', sub: undefined, client: CLIENT.client_id });
  });

  it('guard_refuses_opaque_token_for_another_resource', async () => {
    const g = guardWith();
    const res = await g.send(await accessToken(OTHER, 'tools:read'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(g.code(401)).toBe('ERR_JWT_CLAIM_INVALID');
  });

  it('guard_refuses_opaque_token_missing_the_rule_scope_with_insufficient_scope', async () => {
    const g = guardWith();
    const token = await accessToken(MCP, 'tools:read');
    expect((await g.send(token, '/mcp')).status).toBe(200);
    const res = await g.send(token, '/tools/call');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="tools:call"');
  });

  it('guard_refuses_unknown_opaque_token_as_inactive', async () => {
    const g = guardWith();
    const res = await g.send('not-a-token-the-provider-issued');
    expect(res.status).toBe(401);
    expect(g.code(401)).toBe('ERR_INTROSPECTION_INACTIVE');
  });

  it('guard_refuses_revoked_opaque_token_after_cacheMs', async () => {
    const g = guardWith({ cacheMs: 500 });
    const token = await accessToken(MCP, 'tools:read');
    expect((await g.send(token)).status).toBe(200);
    const auth = oauth.ClientSecretBasic(CLIENT.client_secret);
    const revoked = await oauth.revocationRequest(as, { client_id: CLIENT.client_id }, auth, token, insecure);
    await oauth.processRevocationResponse(revoked);
    // Inside cacheMs the cached answer stands (the documented window a revocation takes)...
    expect((await g.send(token)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 550));
    // ...past it the provider is asked again and says inactive.
    expect((await g.send(token)).status).toBe(401);
    expect(g.code(401)).toBe('ERR_INTROSPECTION_INACTIVE');
  });

  it('guard_answers_503_when_the_provider_refuses_its_client_credentials', async () => {
    const g = guardWith({ secret: 'the wrong secret' });
    const token = await accessToken(MCP, 'tools:read');
    const res = await g.send(token);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const line = g.logs.find((l) => l.includes('"edgejwt":"unavailable"'))!;
    expect(line).toContain('ERR_INTROSPECTION_FAILED');
    expect(line).toContain('client credentials refused');
    expect(g.logs.join('\n')).not.toContain(token);
  });

  it('guard_answers_503_when_the_introspection_endpoint_is_down', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const g = guardWith({ endpoint: `http://127.0.0.1:${port}/introspect` });
    const token = await accessToken(MCP, 'tools:read');
    expect((await g.send(token)).status).toBe(503);
    expect(g.code(503)).toBe('ERR_INTROSPECTION_FAILED');
    expect(g.logs.join('\n')).not.toContain(token);
  });

  it('guard_does_not_start_without_the_introspection_secret', async () => {
    const g = guardWith({ secret: undefined });
    const res = await g.send(await accessToken(MCP, 'tools:read'));
    expect(res.status).toBe(500);
    expect(g.logs.join('\n')).toContain('issuers[0].introspection.secretBinding');
  });
});
