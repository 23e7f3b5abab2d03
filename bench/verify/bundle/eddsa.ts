// A user's Worker that verifies EdDSA only with one key held in code: what `createVerifier`
// costs a bundle (bench/verify/bundle-size.ts). The key is RFC 8037's example public key.
import { createVerifier } from '../../../src/index.ts';

const verifier = createVerifier({ algorithms: ['EdDSA'], key: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }, audience: 'api' });

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
