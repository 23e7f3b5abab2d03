// The `algorithms` allow-list is checked entry by entry, holes included: a sparse array
// (`['HS256', , 'RS256']`, or one built with `length`) is ERR_OPTIONS_INVALID from both
// entries with the same message, as every other entry that is not an algorithm name.
// Array.prototype.some skips holes, so a check written with it let them through.
import { describe, expect, it } from 'vitest';
import { createVerifier as mainVerifier } from '../../src/index.js';
import { createVerifier as hmacVerifier } from '../../src/hmac/index.js';

function refusal(make: () => unknown): { code?: string; setting?: string; message?: string } | undefined {
  try {
    make();
    return undefined;
  } catch (e) {
    const { code, setting, message } = e as { code?: string; setting?: string; message?: string };
    return { code, setting, message };
  }
}

describe('algorithms_list_holes_refused', () => {
  const key = new Uint8Array(64).fill(7);
  const sparse = (): unknown[] => {
    const list: unknown[] = ['HS256'];
    list.length = 2; // one hole after HS256
    return list;
  };
  const cases: [string, () => unknown[]][] = [
    ['a hole after a name', sparse],
    [
      'a hole before a name',
      () => {
        const list: unknown[] = [];
        list[1] = 'HS256';
        return list;
      },
    ],
    ['undefined itself', () => ['HS256', undefined]],
  ];

  for (const [name, list] of cases) {
    it(`${name}: ERR_OPTIONS_INVALID (algorithms, unsupported algorithm) from both entries`, () => {
      const main = refusal(() => mainVerifier({ algorithms: list() as never, key }));
      expect(main).toEqual({
        code: 'ERR_OPTIONS_INVALID',
        setting: 'algorithms',
        message: 'verifier options are invalid (algorithms): unsupported algorithm',
      });
      expect(refusal(() => hmacVerifier({ algorithms: list() as never, key }))).toEqual(main);
    });
  }

  it('an issuer entry with a hole is refused the same way', () => {
    const issuers = [{ issuer: 'https://a.example', algorithms: sparse() as never, key }];
    expect(refusal(() => mainVerifier({ issuers }))?.setting).toBe('algorithms');
  });
});
