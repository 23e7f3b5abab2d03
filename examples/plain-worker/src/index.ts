// A plain Cloudflare Worker using the edgejwt library alone: RS256 tokens verified
// against the issuer's published key set, fetched by the Worker itself (no `fetch`
// option: the runtime's own). `npm install && npx wrangler dev`.
import { createRemoteJWKSet, createVerifier, isJwtError, type Verifier } from 'edgejwt';

interface Env {
  ISSUER: string;
  JWKS_URL: string;
  AUDIENCE: string;
}

// Built once per isolate: the key set is fetched on first use and cached by the verifier.
let verifier: Verifier | undefined;

// The issuer's keys could not be had: not the caller's fault.
const KEYS_UNAVAILABLE = new Set(['ERR_JWKS_FETCH_FAILED', 'ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID']);

function challenge(status: number, error?: string): Response {
  const params = error === undefined ? 'realm="example"' : `realm="example", error="${error}"`;
  const headers = { 'www-authenticate': `Bearer ${params}` };
  return Response.json({ error: error ?? 'unauthorized' }, { status, headers });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    verifier ??= createVerifier({
      algorithms: ['RS256'],
      jwks: createRemoteJWKSet(new URL(env.JWKS_URL)),
      issuer: env.ISSUER,
      audience: env.AUDIENCE,
    });
    const token = /^Bearer (\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (token === undefined) return challenge(401);
    try {
      const { payload } = await verifier.verify(token);
      return Response.json({ runtime: 'workerd', sub: payload.sub });
    } catch (err) {
      if (!isJwtError(err)) throw err;
      if (KEYS_UNAVAILABLE.has(err.code)) {
        // A 503 and a log line naming the code, never a 401.
        console.error(JSON.stringify({ error: err.code }));
        return Response.json({ error: 'keys_unavailable' }, { status: 503, headers: { 'retry-after': '30' } });
      }
      return challenge(401, 'invalid_token');
    }
  },
};
