// Under the node condition a signing key may be a node:crypto KeyObject. Those
// reach node:crypto before any JWK check, and Node imports an RSA key with
// e = 1 without a word, so the signer must check the parameters itself.
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSigner } from '../../src/index.js';
import { codeOfSync } from '../shared/jwt-mint.js';

describe('createSigner with a KeyObject (node)', () => {
  it('an RSA KeyObject with e = 1 is refused: ERR_KEY_INVALID', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = privateKey.export({ format: 'jwk' });
    let weak: unknown;
    try {
      weak = createPrivateKey({ key: { ...jwk, e: 'AQ' }, format: 'jwk' });
    } catch {
      weak = undefined; // this Node refuses it itself, which is also fine
    }
    if (weak !== undefined)
      expect(codeOfSync(() => createSigner({ alg: 'RS256', key: weak as never }))).toBe('ERR_KEY_INVALID');
    expect(codeOfSync(() => createSigner({ alg: 'RS256', key: privateKey }))).toBe('OK');
  });
});
