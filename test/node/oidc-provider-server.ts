// panva's oidc-provider on 127.0.0.1 for the end-to-end tests: listen first (the issuer URL
// carries the port, and the provider is built with it), then discovery through oauth4webapi.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import Provider from 'oidc-provider';

/** oauth4webapi's permission to speak plain http (loopback only, in these tests). */
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

export interface RunningProvider {
  readonly issuer: string;
  /** The provider's discovery document, as oauth4webapi read it. */
  readonly as: oauth.AuthorizationServer;
  close(): Promise<void>;
}

/**
 * Start a provider with the configuration `configure` makes for its issuer URL.
 * @example
 * const op = await startProvider((issuer) => ({ clients: [...], features: { ... } }));
 */
export async function startProvider(configure: (issuer: string) => Record<string, unknown>): Promise<RunningProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_q, r) => r.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handler = new Provider(issuer, configure(issuer)).callback();
  const url = new URL(issuer);
  const as = await oauth.processDiscoveryResponse(url, await oauth.discoveryRequest(url, insecure));
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { issuer, as, close };
}

/** A client's id and secret at the provider. */
export interface ClientSecret {
  client_id: string;
  client_secret: string;
}

const BASIC = { redirect_uris: [], response_types: [], token_endpoint_auth_method: 'client_secret_basic' };

/**
 * The provider configuration of the introspection tests: `service` gets tokens by client_credentials, `guard` only
 * introspects (and only it may), both with client_secret_basic; revocation on; `resource` (RFC 8707) says what
 * each resource indicator gets (throw for an unknown one).
 * @example
 * const op = await startProvider(() =>
 *   introspectionProvider(CLIENT, GUARD, MCP, (r) => ({ scope: 's', audience: r })),
 * );
 */
export function introspectionProvider(
  service: ClientSecret,
  guard: ClientSecret,
  defaultResource: string,
  resource: (indicator: string) => Record<string, unknown>,
): Record<string, unknown> {
  return {
    clients: [
      { ...service, ...BASIC, grant_types: ['client_credentials'] },
      { ...guard, ...BASIC, grant_types: [] },
    ],
    ttl: { ClientCredentials: 600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: { clientId: string }) => client.clientId === guard.client_id,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => defaultResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => resource(indicator),
      },
    },
  };
}
