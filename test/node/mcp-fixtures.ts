// The real software of the MCP end-to-end tests (issue 36), all on 127.0.0.1: panva's oidc-provider
// as the authorization server of one MCP resource (RFC 8707 resource indicators, client_credentials,
// RFC 9068 JWT access tokens), the MCP TypeScript SDK's server with one tool behind its Streamable HTTP
// transport as the origin, a Node http server around a fetch handler (the guard built in Node), and the
// SDK's client calling the tool. Shared by test/node/mcp-sdk-e2e.test.ts and test/no-fakes/mcp.ts (run
// by Node's type stripping: `.ts` specifiers, type-only imports marked).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { discoverAuthorizationServerMetadata, fetchToken } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { startProvider, type RunningProvider } from './oidc-provider-server.ts';

/** The client registered at the authorization server; its tokens live ten minutes. */
export const CLIENT = { client_id: 'mcp-client', client_secret: 'a-long-enough-client-secret-for-mcp' };
/** A client whose tokens live one second: the expired-token case. */
export const SHORT_CLIENT = { client_id: 'mcp-short', client_secret: 'another-long-enough-client-secret' };
/** A second resource of the same authorization server: its tokens are not for the guard. */
export const OTHER_RESOURCE = 'https://other.example.com/api';
/** The scopes the authorization server grants for the MCP resource. */
export const RESOURCE_SCOPES = 'mcp:tools mcp:admin';

export interface Listening {
  readonly url: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * oidc-provider issuing RS256 JWT access tokens by client_credentials for `resourceId` (and OTHER_RESOURCE).
 *
 * @example
 * const op = await startMcpAuthorizationServer('http://127.0.0.1:8788/mcp');
 */
export async function startMcpAuthorizationServer(resourceId: string): Promise<RunningProvider> {
  const pair = await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
  const jwk = { ...(await crypto.subtle.exportKey('jwk', pair.privateKey)), kid: 'as-rs256', alg: 'RS256', use: 'sig' };
  delete jwk.key_ops;
  delete jwk.ext;
  const basic = { grant_types: ['client_credentials'], redirect_uris: [], response_types: [] };
  return startProvider(() => ({
    clients: [CLIENT, SHORT_CLIENT].map((c) => ({ ...c, ...basic, token_endpoint_auth_method: 'client_secret_basic' })),
    jwks: { keys: [jwk] },
    ttl: {
      ClientCredentials: (_ctx: unknown, _token: unknown, client: { clientId: string }) =>
        client.clientId === SHORT_CLIENT.client_id ? 1 : 600,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resourceId,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (resource !== resourceId && resource !== OTHER_RESOURCE) throw new Error('unknown resource');
          return {
            scope: RESOURCE_SCOPES,
            audience: resource,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  }));
}

/** What the MCP origin received: each request's method and path, and the headers the guard sets. */
export interface OriginRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: boolean;
  readonly sub: string | undefined;
}

/**
 * The SDK's MCP server with one tool, `echo` (`{ text }` → the text and the subject the guard forwarded),
 * stateless: a server and a Streamable HTTP transport per POST (its JSON-RPC body parsed by the SDK); any
 * other method 405, as the SDK's stateless examples answer.
 *
 * @example
 * const origin = await startMcpOrigin(); // origin.url, origin.seen
 */
export async function startMcpOrigin(): Promise<Listening & { seen: OriginRequest[] }> {
  const seen: OriginRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sub = req.headers['x-auth-sub'];
    const authorization = req.headers.authorization !== undefined;
    seen.push({
      method: req.method ?? '',
      path: req.url ?? '',
      authorization,
      sub: typeof sub === 'string' ? sub : undefined,
    });
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = new McpServer({ name: 'edgejwt-test-origin', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Returns its text and the subject the guard forwarded', inputSchema: { text: z.string() } },
      ({ text }, extra) => ({
        content: [{ type: 'text', text: `${text} (sub ${String(extra.requestInfo?.headers['x-auth-sub'])})` }],
      }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  return { ...(await listen(server)), seen };
}

/**
 * A Node http server that answers with `handle(request)`: the request's body streamed in, the answer's out.
 *
 * @example
 * const front = await serveFetch((request) => guard.fetch(request, env, ctx));
 */
export async function serveFetch(handle: (request: Request, base: string) => Promise<Response>): Promise<Listening> {
  let base = '';
  const server = createServer((req, res) => {
    void (async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (name !== 'host' && value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream);
      const init = { method: req.method, headers, body, duplex: 'half' } as RequestInit;
      const response = await handle(new Request(`${base}${req.url}`, init), base);
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => (out[name] = value));
      res.writeHead(response.status, out);
      if (response.body === null) res.end();
      else Readable.fromWeb(response.body as never).pipe(res);
    })().catch(() => res.destroy());
  });
  const listening = await listen(server);
  base = listening.url;
  return listening;
}

/** Every request the SDK client made (auth discovery and token requests included), and the status it got. */
export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly wwwAuthenticate: string | null;
  readonly body: string;
}

/**
 * The SDK's client with its client_credentials provider (bound to `issuer`): connects to the MCP server at `url`
 * (the 401, the metadata, the authorization server's metadata and the token are the SDK's own doing), calls
 * `echo` with `text`, and resolves to the tool's text and every exchange it made.
 *
 * @example
 * const { text, exchanges } = await callEchoTool(`${guard.url}/mcp`, op.issuer, 'héllo');
 */
export async function callEchoTool(
  url: string,
  issuer: string,
  text: string,
): Promise<{ text: string; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = request.body === null ? '' : await request.clone().text();
    const response = await fetch(request);
    const entry = { method: request.method, url: request.url, status: response.status, body };
    exchanges.push({ ...entry, wwwAuthenticate: response.headers.get('www-authenticate') });
    return response;
  };
  // The scope is the provider's own: SDK 1.32's client_credentials token request sends only this one, not
  // the challenge's `scope` nor the metadata's scopes_supported (so its 403 "upscoping" cannot help it).
  const authProvider = new ClientCredentialsProvider({
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    scope: 'mcp:tools',
    expectedIssuer: issuer,
  });
  const client = new Client({ name: 'edgejwt-test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider, fetch: recording });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: 'echo', arguments: { text } });
    const content = result.content as { type: string; text?: string }[];
    return { text: content.map((c) => c.text ?? '').join(''), exchanges };
  } finally {
    await client.close();
  }
}

/**
 * A token from the SDK's own client_credentials helpers (the AS's metadata, then the token endpoint) for `resource`.
 *
 * @example
 * const token = await sdkToken(op.issuer, 'http://127.0.0.1:8788/mcp');
 */
export async function sdkToken(
  issuer: string,
  resource: string,
  client = CLIENT,
  scope = 'mcp:tools',
): Promise<string> {
  const metadata = await discoverAuthorizationServerMetadata(issuer);
  const provider = new ClientCredentialsProvider({
    clientId: client.client_id,
    clientSecret: client.client_secret,
    scope,
    expectedIssuer: issuer,
  });
  return (await fetchToken(provider, issuer, { metadata, resource: new URL(resource) })).access_token;
}

/**
 * An MCP `initialize` request to `url` with `token`, as the SDK's Streamable HTTP transport sends one.
 *
 * @example
 * const res = await initialize('http://127.0.0.1:8788/mcp', token); // res.status
 */
export function initialize(url: string, token: string): Promise<Response> {
  const params = {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  };
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params }),
  });
}
