// The library's side of ed25519_known_answer_before_first_import: createVerifier's first EdDSA
// verify checks the core against RFC 8032's TEST 2 before importing the key, and a core that
// answers wrong fails every EdDSA verify with ERR_WASM_CORE (never a verified payload).
// Its own file: the check runs once per module instance.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createVerifier, isJwtError } from '../../src/index.js';
import { Core } from '../../src/wasm/core.js';
import { generate, mint } from '../shared/jwt-mint.js';

afterEach(() => vi.restoreAllMocks());

describe('ed25519_known_answer_before_first_import', () => {
  it('a core whose Ed25519 verify refuses a good signature, or accepts a bad one, fails closed for good', async () => {
    const pair = await generate('EdDSA');
    const other = await generate('EdDSA');
    const verifier = createVerifier({ algorithms: ['EdDSA'], key: pair.publicJwk as never });
    const t = Math.floor(Date.now() / 1000);
    const forgedToken = await mint(other, { sub: 'attacker', iat: t, exp: t + 600 });
    const goodToken = await mint(pair, { sub: 'alice', iat: t, exp: t + 600 });
    const verify = Core.prototype.verify;
    vi.spyOn(Core.prototype, 'verify').mockImplementation(function (this: Core, scheme, slot, signed) {
      return scheme === 'ed25519' ? true : verify.call(this, scheme, slot, signed);
    });
    const code = (token: string) =>
      verifier.verify(token).then(
        () => 'verified',
        (e: unknown) => (isJwtError(e) ? e.code : String(e)),
      );
    expect(await code(forgedToken)).toBe('ERR_WASM_CORE');
    vi.mocked(Core.prototype.verify).mockRestore();
    expect(await code(goodToken)).toBe('ERR_WASM_CORE');
  });
});
