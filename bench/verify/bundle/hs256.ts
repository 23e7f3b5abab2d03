// A user's Worker that verifies HS256 only: what `createVerifier` costs a bundle
// (bench/verify/bundle-size.ts). The key is a bench value, never a real secret.
import { createVerifier } from '../../../src/index.ts';
import { workerOf } from './worker-of.ts';

export default workerOf(createVerifier({ algorithms: ['HS256'], key: new Uint8Array(32).fill(7), audience: 'api' }));
