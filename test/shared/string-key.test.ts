// A string where an HS secret belongs (the most common first mistake) gets an error
// that says what to pass, in the verifier and the signer, without echoing the string.
import { describe, expect, it } from 'vitest';
import { createSigner, createVerifier, isJwtError } from '../../src/index.js';

const secret = 'a-secret-that-is-long-enough-for-hs256-0123';

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('did not throw');
}

describe('a string HS key', () => {
  it('string_hs_key_error_says_what_to_pass', () => {
    const errors = [
      thrown(() => createVerifier({ algorithms: ['HS256'], key: secret as unknown as Uint8Array })),
      thrown(() => createSigner({ alg: 'HS256', key: secret as unknown as Uint8Array })),
    ];
    for (const e of errors) {
      expect(isJwtError(e) && e.code).toBe('ERR_KEY_INVALID');
      expect(e.message).toContain('pass an HMAC secret as bytes (new TextEncoder().encode(secret))');
      expect(e.message).not.toContain(secret);
    }
  });

  it('the same secret as bytes works in both', async () => {
    const key = new TextEncoder().encode(secret);
    const token = await createSigner({ alg: 'HS256', key }).sign({ sub: 'a' }, { expiresIn: 60 });
    expect((await createVerifier({ algorithms: ['HS256'], key }).verify(token)).payload.sub).toBe('a');
  });
});
