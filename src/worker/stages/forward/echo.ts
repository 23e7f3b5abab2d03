// The built-in origin for `npm run dev` and demos (`"origin": "builtin:echo"`):
// it answers with what the origin would have received, so the identity headers
// are visible. Credentials are shown as present, never echoed.

const HIDDEN = new Set(['authorization', 'cookie']);

export function echo(request: Request, url: URL, headers: Headers): Response {
  const seen: Record<string, string> = {};
  headers.forEach((value, name) => {
    seen[name] = HIDDEN.has(name) ? '(present, not shown)' : value;
  });
  const body = { origin: 'edgejwt echo', method: request.method, path: url.pathname, query: url.search, headers: seen };
  return new Response(`${JSON.stringify(body, null, 2)}\n`, {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}
