// Issue 36 end to end in Node, with software no one here wrote, all on 127.0.0.1: the MCP
// TypeScript SDK's client connects to the guard (createGuard, built in Node, served over
// http), gets a 401, finds the RFC 9728 metadata from it, gets a client_credentials token
// for the resource (RFC 8707) from panva's oidc-provider, and calls a tool of the SDK's MCP
// server (the guard's URL origin) through the guard: JSON-RPC POSTs whose bodies must reach
// the origin. The refusals are the SDK's token helpers' tokens sent as the SDK's transport
// sends them, and their challenges read with the SDK's own WWW-Authenticate parser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createGuard, defaultStages } from '../../src/worker/api.js';
import { decodeUnverified } from '../../src/index.js';
import type { RunningProvider } from './oidc-provider-server.js';
import {
  CLIENT,
  OTHER_RESOURCE,
  SHORT_CLIENT,
  callEchoTool,
  initialize as initializeAt,
  sdkToken as tokenFrom,
  serveFetch,
  startMcpAuthorizationServer,
  startMcpOrigin,
  type Listening,
  type OriginRequest,
} from './mcp-fixtures.js';

const MFA = 'urn:example:mfa';
const logs: string[] = [];
let op: RunningProvider;
let origin: Listening & { seen: OriginRequest[] };
let guard: Listening;
let resourceId: string;
let metadataUrl: string;

beforeAll(async () => {
  origin = await startMcpOrigin();
  // The guard's config names its own URL (the resource id), so it is built on its first request.
  let built: { fetch(r: Request): Promise<Response> } | undefined;
  const ctx = { waitUntil: (p: Promise<unknown>) => void p.catch(() => undefined) };
  guard = await serveFetch((request, base) => (built ??= guardFor(base)).fetch(request));
  resourceId = `${guard.url}/mcp`;
  metadataUrl = `${guard.url}/.well-known/oauth-protected-resource/mcp`;
  op = await startMcpAuthorizationServer(resourceId);

  function guardFor(base: string) {
    const g = createGuard(
      {
        resource: { id: `${base}/mcp`, scopes: ['mcp:tools'] },
        // No audience: the issuer takes resource.id (RFC 8707).
        issuers: [{ issuer: op.issuer, algorithms: ['RS256'], jwksUrl: op.as.jwks_uri!, profile: 'at+jwt' }],
        // The first rule that matches applies.
        rules: [
          { pathPrefix: '/mcp/admin', scopes: ['mcp:admin'] },
          { pathPrefix: '/mcp/mfa', scopes: ['mcp:tools'], acr: [MFA] },
          { pathPrefix: '/mcp', scopes: ['mcp:tools'] },
        ],
        origin: origin.url,
        cache: { verify: false, jwks: false },
      },
      { stages: defaultStages, log: (l) => logs.push(l) },
    );
    return { fetch: (r: Request) => g.fetch(r, {} as never, ctx) };
  }
}, 30_000);

afterAll(async () => {
  await guard?.close();
  await origin?.close();
  await op?.close();
});

const sdkToken = (resource: string, client = CLIENT, scope = 'mcp:tools') =>
  tokenFrom(op.issuer, resource, client, scope);
const initialize = (path: string, token: string) => initializeAt(`${guard.url}${path}`, token);
const lastLog = () => JSON.parse(logs.at(-1) ?? '{}') as { status?: number; code?: string };

describe('the MCP SDK through the guard (oidc-provider, RFC 9728, RFC 8707, RFC 9470)', () => {
  it(
    'mcp_sdk_client_calls_tool_through_guard: 401, the ' + 'metadata, a token for the resource, then the tool',
    async () => {
      const text = 'héllo {"through":"the guard"} ✓';
      const { text: answer, exchanges } = await callEchoTool(resourceId, op.issuer, text);
      // The tool's answer holds the POSTed argument (the body reached the origin) and the subject the guard set.
      expect(answer).toBe(`${text} (sub ${CLIENT.client_id})`);

      const first = exchanges[0]!;
      expect(first).toMatchObject({ method: 'POST', url: resourceId, status: 401 });
      expect(first.wwwAuthenticate).toContain(`resource_metadata="${metadataUrl}"`);
      expect(exchanges.find((e) => e.url === metadataUrl)).toMatchObject({ method: 'GET', status: 200 });
      const tokenRequest = exchanges.find((e) => e.url === op.as.token_endpoint);
      expect(tokenRequest?.status).toBe(200);
      expect(new URLSearchParams(tokenRequest!.body).get('resource')).toBe(resourceId);
      expect(new URLSearchParams(tokenRequest!.body).get('grant_type')).toBe('client_credentials');
      const calls = exchanges.filter((e) => e.url === resourceId && e.status === 200);
      expect(calls.map((e) => JSON.parse(e.body).method)).toEqual(expect.arrayContaining(['initialize', 'tools/call']));

      // Only requests with a token passed the guard, and the tool call among them.
      expect(origin.seen.length).toBeGreaterThan(0);
      expect(origin.seen.every((s) => s.authorization && s.sub === CLIENT.client_id && s.path === '/mcp')).toBe(true);
      const passed = exchanges.filter((e) => e.url === resourceId && e.method === 'POST' && e.status !== 401);
      expect(origin.seen.filter((s) => s.method === 'POST').length).toBe(passed.length);
    },
  );

  it('mcp_sdk_discovers_guard_metadata: the SDK reads the document the guard serves without a token', async () => {
    const doc = await discoverOAuthProtectedResourceMetadata(resourceId);
    expect(doc).toMatchObject({
      resource: resourceId,
      authorization_servers: [op.issuer],
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
    });
    const token = await sdkToken(resourceId);
    expect(decodeUnverified(token).payload).toMatchObject({ aud: resourceId, iss: op.issuer, scope: 'mcp:tools' });
  });

  it('mcp_token_for_other_resource_401: a token the same AS issued for another resource is refused', async () => {
    const token = await sdkToken(OTHER_RESOURCE);
    expect(decodeUnverified(token).payload.aud).toBe(OTHER_RESOURCE);
    const seen = origin.seen.length;
    const res = await initialize('/mcp', token);
    expect(res.status).toBe(401);
    const params = extractWWWAuthenticateParams(res);
    expect(params.error).toBe('invalid_token');
    expect(params.resourceMetadataUrl?.href).toBe(metadataUrl);
    expect(lastLog()).toMatchObject({ status: 401, code: 'ERR_JWT_CLAIM_INVALID' });
    expect(origin.seen.length).toBe(seen);
  });

  it('mcp_expired_token_401: a token past its exp is refused', async () => {
    const token = await sdkToken(resourceId, SHORT_CLIENT);
    const exp = decodeUnverified(token).payload.exp as number;
    // Past exp by the guard's clock (clockTolerance 0): a second after it.
    await new Promise((r) => setTimeout(r, Math.max(0, (exp + 1) * 1000 - Date.now())));
    const res = await initialize('/mcp', token);
    expect(res.status).toBe(401);
    const params = extractWWWAuthenticateParams(res);
    expect(params.error).toBe('invalid_token');
    expect(params.resourceMetadataUrl?.href).toBe(metadataUrl);
    expect(lastLog()).toMatchObject({ status: 401, code: 'ERR_JWT_EXPIRED' });
  });

  it("mcp_missing_scope_403: a rule's scope the token lacks is 403 insufficient_scope naming it", async () => {
    const res = await initialize('/mcp/admin', await sdkToken(resourceId));
    expect(res.status).toBe(403);
    const params = extractWWWAuthenticateParams(res);
    expect(params).toMatchObject({ error: 'insufficient_scope', scope: 'mcp:admin' });
    expect(params.resourceMetadataUrl?.href).toBe(metadataUrl);
    // The same path with a token that has the scope passes.
    expect((await initialize('/mcp/admin', await sdkToken(resourceId, CLIENT, 'mcp:tools mcp:admin'))).status).toBe(
      200,
    );
  });

  it(
    'mcp_missing_acr_401: a rule with acr refuses a ' + "client_credentials token (no acr) with RFC 9470's error",
    async () => {
      const res = await initialize('/mcp/mfa', await sdkToken(resourceId));
      expect(res.status).toBe(401);
      const challenge = res.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain(`acr_values="${MFA}"`);
      const params = extractWWWAuthenticateParams(res);
      expect(params.error).toBe('insufficient_user_authentication');
      expect(params.resourceMetadataUrl?.href).toBe(metadataUrl);
    },
  );

  it(
    'mcp_no_token_401_points_to_metadata: no token is 401 ' + 'with resource_metadata and nothing reaches the origin',
    async () => {
      const seen = origin.seen.length;
      const res = await fetch(resourceId, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(401);
      expect(extractWWWAuthenticateParams(res).resourceMetadataUrl?.href).toBe(metadataUrl);
      expect(origin.seen.length).toBe(seen);
    },
  );
});
