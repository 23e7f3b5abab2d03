// The library alone, for the isolate bench: the same issuers as the guard's
// configuration in one edgejwt verifier (key sets inline, HS secret from its
// binding), Bearer tokens, the echo answer; no guard, no caches. Splits the
// guard's cold cost into the library's part and the guard's own.
import { createVerifier, type Verifier } from '../../../src/index.ts';
import { issuerOptions, type IssuerConfig } from './issuers.ts';

let verifier: Verifier | undefined;

function setup(env: Record<string, unknown>): Verifier {
  const raw = env.GUARD_CONFIG;
  const config = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { issuers: IssuerConfig[] };
  return createVerifier({
    issuers: config.issuers.map((c) => issuerOptions(c, env)),
    cache: false,
  });
}

// Built at module scope from the importable env, as a Worker is written now (Cloudflare
// evaluates the module during the TLS handshake); the jose guard and the edgejwt guard do
// the same. A request still builds it if that failed.
void import('cloudflare:workers').then(
  (m: { env: Record<string, unknown> }) => {
    try {
      verifier ??= setup(m.env);
    } catch {
      // left to the first request
    }
  },
  () => undefined,
);

export default {
  async fetch(request: Request, env: Record<string, unknown>): Promise<Response> {
    verifier ??= setup(env);
    const auth = request.headers.get('authorization') ?? '';
    let payload;
    try {
      ({ payload } = await verifier.verify(auth.startsWith('Bearer ') ? auth.slice(7) : ''));
    } catch {
      return new Response('{"error":"invalid_token"}', {
        status: 401,
        headers: { 'content-type': 'application/json' },
      });
    }
    const url = new URL(request.url);
    return new Response(
      JSON.stringify(
        { origin: 'edgejwt-min echo', path: url.pathname, headers: { 'x-auth-sub': String(payload.sub) } },
        null,
        2,
      ) + '\n',
      {
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    );
  },
};
