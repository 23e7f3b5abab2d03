// Issue 36 under `wrangler dev` (workerd), nothing injected: the guard Worker as a user deploys
// it (mcp-worker/: edgejwt/worker's default export, GUARD_CONFIG as a var) in front of the MCP
// TypeScript SDK's server on 127.0.0.1 (a URL origin), panva's oidc-provider as the authorization
// server, and the SDK's client, which gets the 401, discovers the RFC 9728 metadata, gets a token
// for the resource and calls the tool through workerd (JSON-RPC POST bodies forwarded). The same
// fixtures as test/node/mcp-sdk-e2e.test.ts. Needs dist/ (`npm run build`); run by Node's type
// stripping: `node test/no-fakes/mcp.ts`. Last line: `[no-fakes mcp] passed=N failed=N`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  CLIENT,
  OTHER_RESOURCE,
  callEchoTool,
  initialize,
  sdkToken,
  startMcpAuthorizationServer,
  startMcpOrigin,
} from '../node/mcp-fixtures.ts';
import { children, freePort, root, stop, wranglerDev } from './processes.mjs';

const DEADLINE_MS = 120_000; // every child is stopped by then, whatever it is doing

if (!existsSync(join(root, 'dist/index.js'))) {
  console.log('dist/ is missing: run `npm run build` first');
  console.log('[no-fakes mcp] passed=0 failed=1');
  process.exit(1);
}
const deadline = setTimeout(() => {
  console.log(`deadline of ${DEADLINE_MS / 1000}s passed: stopping what still runs`);
  for (const c of children) stop(c);
}, DEADLINE_MS);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const resourceId = `${base}/mcp`;
const metadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
const origin = await startMcpOrigin();
const op = await startMcpAuthorizationServer(resourceId);
const config = {
  resource: { id: resourceId, scopes: ['mcp:tools'] },
  issuers: [{ issuer: op.issuer, algorithms: ['RS256'], jwksUrl: op.as.jwks_uri, profile: 'at+jwt' }],
  rules: [
    { pathPrefix: '/mcp/admin', scopes: ['mcp:admin'] },
    { pathPrefix: '/mcp', scopes: ['mcp:tools'] },
  ],
  origin: origin.url,
  // No KV, no Cache API key: the key set is fetched from oidc-provider over loopback.
  cache: { verify: false, jwks: false, jwksColo: false },
};

/** Each check resolves to undefined when it holds, else what was wrong. */
const checks: Record<string, () => Promise<string | undefined>> = {
  mcp_sdk_client_calls_tool_through_guard_workerd: async () => {
    const text = 'héllo {"through":"workerd"} ✓';
    const { text: answer, exchanges } = await callEchoTool(resourceId, op.issuer, text);
    const first = exchanges[0];
    if (first?.status !== 401 || !first.wwwAuthenticate?.includes(`resource_metadata="${metadataUrl}"`)) {
      return `first answer ${first?.status} ${first?.wwwAuthenticate}`;
    }
    if (!exchanges.some((e) => e.url === metadataUrl && e.status === 200)) return 'the metadata was not read';
    const token = exchanges.find((e) => e.url === op.as.token_endpoint);
    if (new URLSearchParams(token?.body).get('resource') !== resourceId) return `token request ${token?.body}`;
    if (answer !== `${text} (sub ${CLIENT.client_id})`) return `tool answered ${JSON.stringify(answer)}`;
    if (!origin.seen.every((s) => s.authorization)) return 'a request without a token reached the origin';
    return undefined;
  },
  mcp_token_for_other_resource_401_workerd: async () => {
    const res = await initialize(resourceId, await sdkToken(op.issuer, OTHER_RESOURCE));
    const params = extractWWWAuthenticateParams(res);
    if (res.status === 401 && params.error === 'invalid_token' && params.resourceMetadataUrl?.href === metadataUrl) {
      return undefined;
    }
    return `status ${res.status}, WWW-Authenticate ${res.headers.get('www-authenticate')}`;
  },
  mcp_missing_scope_403_workerd: async () => {
    const res = await initialize(`${base}/mcp/admin`, await sdkToken(op.issuer, resourceId));
    const params = extractWWWAuthenticateParams(res);
    const ok = params.error === 'insufficient_scope' && params.scope === 'mcp:admin';
    if (res.status === 403 && ok && params.resourceMetadataUrl?.href === metadataUrl) return undefined;
    return `status ${res.status}, WWW-Authenticate ${res.headers.get('www-authenticate')}`;
  },
};

let passed = 0;
let failed = 0;
let dev: Awaited<ReturnType<typeof wranglerDev>> | undefined;
try {
  dev = await wranglerDev(join(root, 'test/no-fakes/mcp-worker'), { GUARD_CONFIG: JSON.stringify(config) }, port);
  for (const [name, check] of Object.entries(checks)) {
    const problem = await check().catch((e: Error) => `threw ${e.message}`);
    if (problem === undefined) passed++;
    else failed++;
    console.log(problem === undefined ? `ok   workerd: ${name}` : `FAIL workerd: ${name}\n     ${problem}`);
  }
  if (failed > 0) console.log(`--- wrangler dev output ---\n${dev.child.output().slice(-2000)}`);
} catch (e) {
  console.log(`FAIL workerd: ${(e as Error).message}`);
  failed = Object.keys(checks).length - passed;
} finally {
  clearTimeout(deadline);
  if (dev) stop(dev.child);
  await Promise.all([origin.close(), op.close()]);
}
console.log(`[no-fakes mcp] passed=${passed} failed=${failed}`);
process.exitCode = failed === 0 ? 0 : 1;
