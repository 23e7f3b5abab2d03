// The error messages, split by who raises them (src/errors.ts holds the verify path's,
// src/messages/ the JWE, DPoP and certificate-binding ones, registered by the modules
// that raise them): every code keeps its message, and every bundle carries the message
// of every code its code can raise, so a tree-shaken Worker reports the same text.
import { build } from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { ERROR_MESSAGES, JwtError, type JwtErrorCode } from '../../src/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = mkdtempSync(join(tmpdir(), 'edgejwt-messages-'));

/** A Worker-style bundle (not minified, so string literals stay readable) of `source`. */
async function bundle(source: string): Promise<string> {
  const r = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    // edgejwt-source: the package's # imports resolve to src/, not to a dist/ build.
    conditions: ['edgejwt-source', 'workerd', 'worker', 'browser'],
    platform: 'neutral',
    external: ['*.wasm', 'node:*', 'cloudflare:*', './generated/core-bytes.js'],
    logLevel: 'silent',
  });
  return r.outputFiles[0]!.text;
}

const quoted = (text: string): string => JSON.stringify(text);
const codesIn = (code: string): Set<string> => new Set([...code.matchAll(/"(ERR_[A-Z0-9_]+)"/g)].map((m) => m[1]!));

/** Every value the package's main entry exports, each bundled alone as a user would import it. */
const EXPORTS = Object.keys(lib).filter((name) => name !== 'default');

describe('error messages split by who raises them', () => {
  it(
    'error_message_every_code_unchanged: all 46 codes keep their message and their order, and a JwtError starts ' +
      'with it',
    () => {
      const codes = Object.keys(ERROR_MESSAGES) as JwtErrorCode[];
      expect(codes).toHaveLength(46);
      // The order ERROR_MESSAGES always had: the verify path, JWE, the access token profile, DPoP, mTLS.
      const kinds = codes.map(
        (c) => /^ERR_(JWE|DPOP|MTLS)_/.exec(c)?.[1] ?? (c === 'ERR_JWT_PROFILE_MISMATCH' ? 'PROFILE' : 'VERIFY'),
      );
      expect([...new Set(kinds)]).toEqual(['VERIFY', 'JWE', 'PROFILE', 'DPOP', 'MTLS']);
      for (const code of codes) {
        expect(ERROR_MESSAGES[code]).toMatch(/^[A-Za-z]/);
        expect(new JwtError(code).message).toBe(ERROR_MESSAGES[code]);
        expect(new JwtError(code, { claim: 'x', reason: 'y' }).message).toBe(`${ERROR_MESSAGES[code]} (x): y`);
      }
    },
  );

  it(
    'bundle_carries_message_of_every_code_it_raises: each export of edgejwt bundled alone holds the message of ' +
      'every code in it',
    async () => {
      expect(EXPORTS.length).toBeGreaterThan(15);
      for (const name of [...EXPORTS, 'createVerifier, jweDecryption']) {
        const code = await bundle(`import { ${name} } from './src/index.ts';\nexport default [${name}];`);
        for (const c of codesIn(code)) {
          expect(code.includes(quoted(ERROR_MESSAGES[c as JwtErrorCode])), `${name}: the message of ${c}`).toBe(true);
        }
      }
    },
    120_000,
  );

  it('bundle_carries_message_of_every_code_it_raises: the guard Worker and the Hono middleware too', async () => {
    for (const entry of ['./src/worker/index.ts', './src/hono/index.ts']) {
      const code = await bundle(`export * from '${entry}';`);
      for (const c of codesIn(code))
        expect(code.includes(quoted(ERROR_MESSAGES[c as JwtErrorCode])), `${entry}: the message of ${c}`).toBe(true);
    }
  }, 120_000);

  it(
    'error_messages_follow_their_code: a bundled checkDpopBinding and checkCertificateBinding throw the full ' +
      'messages; a createVerifier bundle holds no JWE, DPoP or mTLS message',
    async () => {
      const file = join(out, 'bindings.mjs');
      writeFileSync(file, await bundle(`export { checkDpopBinding, checkCertificateBinding } from './src/index.ts';`));
      const m = (await import(pathToFileURL(file).href)) as Pick<
        typeof lib,
        'checkDpopBinding' | 'checkCertificateBinding'
      >;
      expect(() => m.checkDpopBinding({ sub: 'a' }, 'jkt')).toThrow(
        `${ERROR_MESSAGES.ERR_DPOP_BINDING_MISMATCH} (cnf): missing`,
      );
      expect(() => m.checkCertificateBinding({ sub: 'a' }, '')).toThrow(
        `${ERROR_MESSAGES.ERR_MTLS_CNF_MISSING} (cnf): missing`,
      );
      const verifier = await bundle(`import { createVerifier } from './src/index.ts';\nexport default createVerifier;`);
      for (const c of Object.keys(ERROR_MESSAGES) as JwtErrorCode[]) {
        if (/^ERR_(JWE|DPOP|MTLS)_/.test(c)) expect(verifier.includes(quoted(ERROR_MESSAGES[c])), c).toBe(false);
      }
      expect(verifier.includes(quoted(ERROR_MESSAGES.ERR_JWS_SIGNATURE_INVALID))).toBe(true);
    },
    60_000,
  );
});
