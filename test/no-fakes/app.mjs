// The application every runtime of the suite runs, written as the docs tell a user
// to: nothing injected (no `fetch` option, no mocked platform object), `edgejwt`
// resolved by name through the package's own `exports` to dist/.
//   /lib/verify        README "Use the library": createRemoteJWKSet(new URL(...))
//   /hono/me           docs/runtimes.md: jwtAuth with a remote key set
//   /guard/url/*       createGuard: OIDC discovery from the issuer, a URL origin
//   /guard/service/*   the same guard forwarding to the service binding ORIGIN (workerd only)
// The browser runs the first two alone (createLibRoutes): the guard is a server.
import { createRemoteJWKSet, createVerifier, isJwtError } from 'edgejwt';
import { jwtAuth } from 'edgejwt/hono';
import { createGuard, keySets, remoteKeys, serviceOrigin } from 'edgejwt/worker';
import { Hono } from 'hono';

const ALGORITHMS = ['RS256', 'ES256'];

/**
 * The library's and hono's routes for the issuer at `base`: a handler that answers
 * /lib/verify and /hono/*, and resolves to undefined for any other path. The browser
 * runs these alone (browser.mjs).
 *
 * @example
 * const handle = createLibRoutes('http://127.0.0.1:8788');
 * const res = await handle(new Request('http://app/lib/verify'));
 */
export function createLibRoutes(base) {
  const jwksUrl = new URL(`${base}/jwks.json`);
  const policy = { algorithms: ALGORITHMS, issuer: base, audience: 'api' };
  const verifier = createVerifier({ ...policy, jwks: createRemoteJWKSet(jwksUrl) });

  const hono = new Hono();
  hono.use('/hono/*', jwtAuth({ ...policy, jwks: createRemoteJWKSet(jwksUrl) }));
  hono.get('/hono/me', (c) => c.json({ sub: c.get('jwtPayload').sub }));

  return async (request, env, ctx) => {
    const path = new URL(request.url).pathname;
    if (path === '/lib/verify') {
      try {
        const { payload, header } = await verifier.verify(request.headers.get('authorization')?.slice(7) ?? '');
        return Response.json({ sub: payload.sub, alg: header.alg });
      } catch (err) {
        if (isJwtError(err)) return Response.json({ code: err.code }, { status: 401 });
        throw err;
      }
    }
    if (path.startsWith('/hono/')) return hono.fetch(request, env, ctx);
    return undefined;
  };
}

/**
 * The app's fetch handler for the issuer at `base` (also the guard's URL origin).
 *
 * @example
 * const handle = createApp('http://127.0.0.1:8788');
 * const res = await handle(new Request('http://app/lib/verify'), {}, ctx);
 */
export function createApp(base) {
  const lib = createLibRoutes(base);
  // No jwksUrl: the guard finds the key set through <issuer>/.well-known/openid-configuration.
  const issuers = [{ issuer: base, audience: 'api', algorithms: ALGORITHMS, discovery: true }];
  const cache = { verify: false, jwks: false };
  // Eight runtimes start at once beside other suites: a loaded 2-core machine can pass the 3 s default before a
  // cold runtime has read discovery and the key set (seen once in Node 24). The deadline itself is tested elsewhere.
  const jwks = { timeoutMs: 15_000 };
  const toUrl = createGuard({ issuers, origin: base, cache, jwks }, { stages: [keySets, remoteKeys] });
  const toService = createGuard(
    { issuers, origin: { service: 'ORIGIN' }, cache, jwks },
    { stages: [keySets, remoteKeys, serviceOrigin] },
  );

  return async (request, env, ctx) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/guard/url/')) return toUrl.fetch(request, env, ctx);
    if (path.startsWith('/guard/service/')) return toService.fetch(request, env, ctx);
    return (await lib(request, env, ctx)) ?? new Response('no such route', { status: 404 });
  };
}
