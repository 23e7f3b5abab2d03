// A user's Worker that verifies HS256 and decrypts JWE (jweDecryption): what the JWE
// code adds to the HS256 bundle (bench/verify/bundle-size.ts; test/node/verify-path.test.ts
// checks that it is in here and in no bundle without jweDecryption). Bench keys only.
import { createVerifier, jweDecryption } from '../../../src/index.ts';
import { workerOf } from './worker-of.ts';

export default workerOf(
  createVerifier({
    algorithms: ['HS256'],
    key: new Uint8Array(32).fill(7),
    audience: 'api',
    decryption: jweDecryption({ keys: [new Uint8Array(32).fill(9)] }),
  }),
);
