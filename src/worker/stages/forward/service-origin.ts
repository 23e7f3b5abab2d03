// `origin: { "service": "API" }`: authorised requests go to another Worker
// through its service binding (`env.API.fetch`), never over the internet.

import { ConfigError } from '../../config-error.js';

/** What a service binding offers the guard. */
export interface ServiceBinding {
  fetch(request: Request): Promise<Response>;
}

/**
 * The binding named in the config; a ConfigError when it is missing. `env` is the
 * Worker's env (GuardEnv; typed by its index signature so that this file does not
 * import build.ts, which imports it).
 */
export function serviceBinding(env: { readonly [binding: string]: unknown }, name: string): ServiceBinding {
  const b: unknown = env[name];
  if (typeof b !== 'object' || b === null || typeof (b as Partial<ServiceBinding>).fetch !== 'function')
    throw new ConfigError('origin.service', 'the service binding is missing');
  return b as ServiceBinding;
}

/**
 * The host every service-binding request carries. A binding routes by itself, so
 * the URL's host is only what the target Worker reads in `request.url`; it is
 * fixed here because the request's own host (an absolute-form request target, a
 * Host header) is chosen by the client. `.invalid` never resolves (RFC 6761).
 */
export const SERVICE_BASE = 'https://service-binding.invalid';

/**
 * The request as the guard sends it through the binding: the canonical (or, with
 * `paths.forward: "received"`, the received) `path` and the query on SERVICE_BASE,
 * with the client's headers but not its `Host` (the client chose it; the target
 * Worker reads its host from the URL). undefined when the runtime will not build
 * it (a GET or HEAD with a body): the guard answers 400.
 *
 * @example
 * serviceRequest(request, new URL('https://a.example//x?q=1'), '/x', headers)?.url;
 * // 'https://service-binding.invalid/x?q=1'
 */
export function serviceRequest(
  request: Request,
  url: { readonly search: string },
  path: string,
  headers: Headers,
): Request | undefined {
  const target = new URL(SERVICE_BASE);
  target.pathname = path;
  target.search = url.search;
  try {
    // duplex: Node and Deno refuse a stream body without it (forward.ts builds the URL origin's the same way).
    const init = { method: request.method, headers, body: request.body, redirect: 'manual', duplex: 'half' };
    const r = new Request(target, init as RequestInit);
    r.headers.delete('host');
    return r;
  } catch {
    return undefined;
  }
}

/**
 * The binding and the request it takes: what the forwarding stage holds for `origin: { service }`.
 *
 * @example
 * const service: ServiceOrigin = serviceOrigin(env, 'API');
 */
export interface ServiceOrigin {
  fetch(request: Request): Promise<Response>;
  request: typeof serviceRequest;
}

/**
 * The service origin named in the config (serviceBinding's ConfigError when the binding is missing).
 *
 * @example
 * const service = serviceOrigin(env, 'API');
 * const r = service.request(request, url, '/x', request.headers);
 * if (r !== undefined) return service.fetch(r);
 */
export function serviceOrigin(env: { readonly [binding: string]: unknown }, name: string): ServiceOrigin {
  const binding = serviceBinding(env, name);
  return { fetch: (r) => binding.fetch(r), request: serviceRequest };
}
