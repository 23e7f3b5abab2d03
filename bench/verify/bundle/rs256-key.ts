// A user's Worker that verifies RS256 only with one key held in code: what `createVerifier`
// costs a bundle (bench/verify/bundle-size.ts). The JWK is a placeholder: only the bundle is measured, never run.
import { createVerifier } from '../../../src/index.ts';
import { workerOf } from './worker-of.ts';

export default workerOf(
  createVerifier({
    algorithms: ['RS256'],
    key: { kty: 'RSA', n: 'n-is-not-read-at-bundle-time', e: 'AQAB' },
    audience: 'api',
  }),
);
