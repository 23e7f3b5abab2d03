// The guard's known-answer token (src/worker/self-test.ts) checked against
// node:crypto: its HMAC is right for its key, and its claims are what the self-test expects.
// warm_docs_match_self_test: the docs of warm() name exactly the algorithms the self-test covers.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  SELF_TEST,
  SELF_TEST_ALGORITHMS,
  SELF_TEST_SHA512,
  selfTest,
  sha512Token,
} from '../../src/worker/self-test.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

describe('guard self-test vector', () => {
  it('self_test_vector_node_crypto: the HS256 token is signed by its key, per node:crypto', () => {
    const [h, p, s] = SELF_TEST.token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    expect(payload).toMatchObject({ iss: SELF_TEST.issuer, aud: SELF_TEST.issuer, sub: 'self-test' });
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000 + 50 * 365 * 86400);
    expect(createHmac('sha256', SELF_TEST.key).update(`${h}.${p}`).digest('base64url')).toBe(s);
  });
});

describe('guard self-test vectors of HS384 and HS512', () => {
  it(
    'self_test_vector_hs384_hs512_node_crypto: each token is signed by SELF_TEST_SHA512.key with its hash, per ' +
      'node:crypto, and selfTest passes with both',
    async () => {
      for (const [alg, hash] of [
        ['HS384', 'sha384'],
        ['HS512', 'sha512'],
      ] as const) {
        const [h, p, s] = sha512Token(alg).split('.') as [string, string, string];
        expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg, typ: 'JWT' });
        expect(Buffer.from(p, 'base64url').toString()).toBe(
          Buffer.from(SELF_TEST.token.split('.')[1]!, 'base64url').toString(),
        );
        expect(createHmac(hash, SELF_TEST_SHA512.key).update(`${h}.${p}`).digest('base64url')).toBe(s);
      }
      await expect(selfTest(['HS384', 'HS512'])).resolves.toBeUndefined();
    },
  );
});

/** The algorithm names (JWS alg values, and RS*-style families) a text mentions. */
function algorithmsNamed(text: string): Set<string> {
  return new Set(text.match(/\b(?:HS|RS|PS|ES)(?:256|384|512|\*)|\bEdDSA\b|\bEd25519\b/g) ?? []);
}

/** The text from `start` up to `end` (both must be there). */
function section(file: string, start: string, end: string): string {
  const text = readFileSync(join(root, file), 'utf8');
  const i = text.indexOf(start);
  const j = text.indexOf(end, i + start.length);
  expect(i, `${file}: ${start}`).toBeGreaterThanOrEqual(0);
  expect(j, `${file}: ${end}`).toBeGreaterThan(i);
  return text.slice(i, j);
}

describe('warm() and its docs agree', () => {
  // Each text about the self-test names what it tests; any other algorithm it names must be
  // named after "does not test" in the same text.
  const texts: [file: string, start: string, end: string][] = [
    ['src/worker/embed.ts', 'Build the guard now, from the module-scope env', 'warm(env: GuardEnv): void;'],
    ['docs/deploy.md', 'The self-test verifies one known', '`warm` never throws'],
    ['docs/decisions/0007-guard-built-at-module-scope.md', '1. `selfTest()`', '2. The guard is built'],
  ];
  for (const [file, start, end] of texts) {
    it(`warm_docs_match_self_test: ${file} says exactly which algorithms the self-test covers`, () => {
      const text = section(file, start, end);
      const [tested, untested = ''] = text.split(/does \*{0,2}not\*{0,2} test/);
      expect([...algorithmsNamed(tested!)].sort()).toEqual([...SELF_TEST_ALGORITHMS].sort());
      // Whatever else is named is said not to be tested: the four families beside HS256.
      const rest = algorithmsNamed(untested);
      for (const family of ['EdDSA', 'RS*', 'PS*', 'ES*'])
        expect(rest, `${file} names ${family} as untested`).toContain(family);
    });
  }
});
