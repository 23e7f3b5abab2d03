// The RS/PS/ES backend is handed views of the Wasm core's memory, which the next
// verify decodes over. These tests start a second verify before the first is
// awaited: a runtime that read the bytes after the call (not at it, as WebCrypto's
// verify steps require) would check the first token against the second's bytes.
import { describe, expect, it } from 'vitest';
import { createVerifier } from '../../src/index.js';
import { claims, generate, mint, nowDate } from './jwt-mint.js';

const ALGS = ['RS256', 'PS256', 'ES256'] as const;

function tamper(token: string): string {
  const [h, p, s] = token.split('.') as [string, string, string];
  return `${h}.${p}.${(s[0] === 'A' ? 'B' : 'A') + s.slice(1)}`;
}

const outcome = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'valid',
    (e: { code?: string }) => e.code ?? 'thrown',
  );

describe('backend verify reads its arguments at call time', () => {
  for (const alg of ALGS) {
    it(`${alg}: a verify started before the previous one settles does not change its verdict`, async () => {
      const pair = await generate(alg);
      const good = await mint(pair, claims({ sub: 'user-1' }));
      const other = await mint(pair, claims({ sub: 'user-2', pad: 'x'.repeat(40) }));
      const bad = tamper(good);
      const v = createVerifier({ algorithms: [alg], key: pair.publicJwk, currentDate: nowDate, cache: false });
      await v.verify(good); // the key is imported: later calls reach the backend synchronously
      const tokens = [good, bad, other, tamper(other), good, other, bad, good];
      const pending = tokens.map((t) => outcome(v.verify(t)));
      const expected = tokens.map((t) => (t === good || t === other ? 'valid' : 'ERR_JWS_SIGNATURE_INVALID'));
      expect(await Promise.all(pending)).toEqual(expected);
    });
  }
});
