// The same Worker as hs256.ts, with createVerifier from edgejwt/hmac (src/hmac/index.ts):
// the bundle issue 23's HS256 target is checked against. The key is a bench value, never a real secret.
import { createVerifier } from '../../../src/hmac/index.ts';
import { workerOf } from './worker-of.ts';

export default workerOf(createVerifier({ algorithms: ['HS256'], key: new Uint8Array(32).fill(7), audience: 'api' }));
