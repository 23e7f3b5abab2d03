// A user's Worker that verifies HS256 and decrypts JWE (jweDecryption): what the JWE
// code adds to the HS256 bundle (bench/verify/bundle-size.ts; test/node/verify-path.test.ts
// checks that it is in here and in no bundle without jweDecryption). Bench keys only.
import { createVerifier, jweDecryption } from '../../../src/index.ts';

const verifier = createVerifier({
  algorithms: ['HS256'],
  key: new Uint8Array(32).fill(7),
  audience: 'api',
  decryption: jweDecryption({ keys: [new Uint8Array(32).fill(9)] }),
});

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
