// The Worker of bench/guard/fleet-local.ts: verifies one RS256 token per request with
// a key set built for that request (a fresh instance, as a fresh isolate has), either
// edgejwt's over this data centre's Cache API (sealed) or jose's memory-only one.
import { cacheApiStore, createRemoteJWKSet, createSealer, createVerifier, type Sealer } from '../../src/index.ts';
import { createRemoteJWKSet as joseRemoteJWKSet, jwtVerify } from 'jose';

interface Env {
  JWKS_URL: string;
  CACHE_KEY: string;
}
let sealer: Promise<Sealer> | undefined;

export default {
  async fetch(request: Request, env: Env, ctx: { waitUntil(p: Promise<unknown>): void }): Promise<Response> {
    const u = new URL(request.url);
    const token = u.searchParams.get('token') ?? '';
    const started = Date.now();
    let ok = false;
    try {
      if (u.searchParams.get('peer') === 'jose') {
        await jwtVerify(token, joseRemoteJWKSet(new URL(env.JWKS_URL)));
      } else {
        sealer ??= createSealer(env.CACHE_KEY);
        const jwks = createRemoteJWKSet(env.JWKS_URL, {
          store: cacheApiStore({ seal: await sealer }),
          waitUntil: (p) => ctx.waitUntil(p),
          fetch: (input, init) => fetch(input, init),
          timeoutDuration: 3000,
          storeTimeoutDuration: 5000,
        });
        await createVerifier({ algorithms: ['RS256'], jwks }).verify(token);
      }
      ok = true;
    } catch {
      ok = false;
    }
    return Response.json({ ok, ms: Date.now() - started });
  },
};
