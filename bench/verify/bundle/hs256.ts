// A user's Worker that verifies HS256 only: what `createVerifier` costs a bundle
// (bench/verify/bundle-size.ts). The key is a bench value, never a real secret.
import { createVerifier } from '../../../src/index.ts';

const verifier = createVerifier({ algorithms: ['HS256'], key: new Uint8Array(32).fill(7), audience: 'api' });

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
