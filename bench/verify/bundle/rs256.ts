// A user's Worker that verifies RS256 only, keys from a JWKS URL: what `createVerifier`
// with a remote key set costs a bundle (bench/verify/bundle-size.ts).
import { createRemoteJWKSet, createVerifier } from '../../../src/index.ts';
import { workerOf } from './worker-of.ts';

export default workerOf(
  createVerifier({
    algorithms: ['RS256'],
    jwks: createRemoteJWKSet('https://issuer.example/.well-known/jwks.json'),
    audience: 'api',
  }),
);
