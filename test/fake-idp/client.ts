// The tests' side of the fake IdP (server.ts): put documents in place and count
// what the guard fetched, all over loopback.
import { inject } from 'vitest';

export function idpBase(): string {
  return `http://127.0.0.1:${inject('fakeIdpPort')}`;
}

/** Serve `body` (JSON) at `path` from now on. */
export async function serve(
  path: string,
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Promise<void> {
  const res = await fetch(`${idpBase()}/__set?path=${encodeURIComponent(path)}`, {
    method: 'PUT',
    body: JSON.stringify({ ...init, body }),
  });
  if (res.status !== 204) throw new Error(`fake IdP refused ${path}`);
}

/** How many times the guard fetched `path`. */
export async function hits(path: string): Promise<number> {
  const res = await fetch(`${idpBase()}/__hits?path=${encodeURIComponent(path)}`);
  return ((await res.json()) as { hits: number }).hits;
}

/**
 * A fetch that sends every https request for `host` to the fake IdP instead (same path), for issuers with fixed
 * https URLs.
 */
export function routeHostToIdp(host: string, prefix: string): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const u = new URL(req.url);
    if (u.host !== host) return Promise.reject(new TypeError(`unexpected fetch in test: ${u.host}`));
    return fetch(new Request(`${idpBase()}${prefix}${u.pathname}${u.search}`, req));
  }) as typeof fetch;
}
