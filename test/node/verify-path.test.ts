// The verify path without JWE (src/verify-path.ts), which the guard builds its verifier
// with so that its Worker bundle carries no src/jwe/: the same verdicts as
// createVerifier for JWS, and a `decryption` option refused, never silently ignored.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEncrypter, createSigner, createVerifier, jweDecryption } from '../../src/index.js';
import { buildVerifier } from '../../src/verify-path.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const secret = new Uint8Array(32).fill(7);
const cek = new Uint8Array(32).fill(9);

async function bundleInputs(entry: string): Promise<string[]> {
  const r = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    metafile: true,
    // edgejwt-source: the package's # imports resolve to src/ (without it they come from dist/).
    conditions: ['edgejwt-source', 'workerd', 'worker', 'browser'],
    platform: 'neutral',
    external: ['*.wasm', 'node:*', 'cloudflare:*', './generated/core-bytes.js'],
    logLevel: 'silent',
  });
  const out = Object.values(r.metafile.outputs)[0]!;
  return Object.keys(out.inputs).filter((f) => out.inputs[f]!.bytesInOutput > 0);
}

describe('buildVerifier (the verify path without JWE)', () => {
  it('verifies a JWS as createVerifier does', async () => {
    const token = await createSigner({ alg: 'HS256', key: secret }).sign({ sub: 'a' }, { expiresIn: 60 });
    const v = buildVerifier({ algorithms: ['HS256'], key: secret });
    expect(v.verifySync(token).payload.sub).toBe('a');
    expect((await createVerifier({ algorithms: ['HS256'], key: secret }).verify(token)).payload.sub).toBe('a');
  });

  it(
    'decryption_plain_options_refused: a `decryption` not made by jweDecryption (the 0.1.0 `{ keys }` form) is ' +
      'ERR_OPTIONS_INVALID, never ignored',
    () => {
      for (const make of [buildVerifier, createVerifier]) {
        for (const plain of [{ keys: [cek] }, {}, null, 'dir', { options: { keys: [cek] }, support: {} }]) {
          expect(() => make({ algorithms: ['HS256'], key: secret, decryption: plain as never })).toThrow(
            expect.objectContaining({ code: 'ERR_OPTIONS_INVALID', setting: 'decryption' }),
          );
        }
      }
    },
  );

  it('treats a JWE as a malformed token, while createVerifier({ decryption }) opens it', async () => {
    const jwe = await createEncrypter({ alg: 'dir', enc: 'A256GCM', key: cek }).encrypt({
      sub: 'b',
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    await expect(buildVerifier({ algorithms: ['HS256'], key: secret }).verify(jwe)).rejects.toMatchObject({
      code: expect.stringMatching(/^ERR_JW[ST]_/),
    });
    const v = createVerifier({ algorithms: ['HS256'], key: secret, decryption: jweDecryption({ keys: [cek] }) });
    expect((await v.verify(jwe)).payload.sub).toBe('b');
  });
});

describe('bundles', () => {
  it('the guard Worker bundles nothing of src/jwe/ nor the public createVerifier', async () => {
    const inputs = await bundleInputs('src/worker/index.ts');
    expect(inputs.some((f) => f.includes('src/verify-path.ts'))).toBe(true);
    expect(inputs.filter((f) => /src\/jwe\/|src\/verifier\.ts|src\/backend\/jwe-/.test(f))).toEqual([]);
  });

  it(
    'createverifier_bundle_without_jwe: a Worker calling createVerifier without jweDecryption bundles nothing ' +
      'of src/jwe/; with it, the decryptor',
    async () => {
      const without = await bundleInputs('bench/verify/bundle/hs256.ts');
      expect(without.some((f) => f.includes('src/verifier.ts'))).toBe(true);
      expect(without.filter((f) => /src\/jwe\/|src\/backend\/jwe-/.test(f))).toEqual([]);
      const withJwe = await bundleInputs('bench/verify/bundle/hs256-jwe.ts');
      expect(withJwe.some((f) => f.includes('src/jwe/decrypt.ts'))).toBe(true);
    },
  );
});
