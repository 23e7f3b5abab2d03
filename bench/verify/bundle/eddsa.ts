// A user's Worker that verifies EdDSA only with one key held in code: what `createVerifier`
// costs a bundle (bench/verify/bundle-size.ts). The key is RFC 8037's example public key.
import { createVerifier } from '../../../src/index.ts';
import { workerOf } from './worker-of.ts';

export default workerOf(
  createVerifier({
    algorithms: ['EdDSA'],
    key: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
    audience: 'api',
  }),
);
