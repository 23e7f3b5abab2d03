// A user's Worker that verifies ES256 only with one key held in code: what `createVerifier`
// costs a bundle (bench/verify/bundle-size.ts). The JWK is a placeholder: only the bundle is measured, never run.
import { createVerifier } from '../../../src/index.ts';
import { workerOf } from './worker-of.ts';

export default workerOf(
  createVerifier({
    algorithms: ['ES256'],
    key: { kty: 'EC', crv: 'P-256', x: 'x-is-not-read-at-bundle-time', y: 'y-is-not-read-at-bundle-time' },
    audience: 'api',
  }),
);
