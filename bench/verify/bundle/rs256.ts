// A user's Worker that verifies RS256 only, keys from a JWKS URL: what `createVerifier`
// with a remote key set costs a bundle (bench/verify/bundle-size.ts).
import { createRemoteJWKSet, createVerifier } from '../../../src/index.ts';

const verifier = createVerifier({ algorithms: ['RS256'], jwks: createRemoteJWKSet('https://issuer.example/.well-known/jwks.json'), audience: 'api' });

export default {
  async fetch(request: Request): Promise<Response> {
    const auth = request.headers.get('authorization') ?? '';
    try {
      const { payload } = await verifier.verify(auth.slice(7));
      return new Response(String(payload.sub));
    } catch {
      return new Response('unauthorized', { status: 401 });
    }
  },
};
