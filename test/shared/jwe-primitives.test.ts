// Wycheproof primitive files through the functions the JWE layer itself calls:
// AES-GCM (aesGcmDecrypt), AES key unwrap (aesKwUnwrap), AES-CBC with PKCS#5 padding
// (aesCbcDecrypt), RSA-OAEP-256 (rsaOaepDecrypt), and ECDH P-256/P-384 and X25519
// through JweKey.unwrap('ECDH-ES'), whose CEK must equal the Concat KDF of the
// expected shared secret (every ECDH case in Node, a fixed sample elsewhere: vector-sample.ts). Cases outside what a
// JWE can carry (AES-192, GCM IVs other than 96 bits, OAEP labels) are counted, and the reachable ones must all agree.
import { describe, expect, it } from 'vitest';
import { encSpec } from '../../src/jwe/algorithms.js';
import { aesCbcDecrypt, aesGcmDecrypt, decryptContent } from '../../src/jwe/content.js';
import { concatKdf } from '../../src/jwe/kdf.js';
import { JweKey, aesKwUnwrap, rsaOaepDecrypt, type EncryptionJWK } from '../../src/jwe/keys.js';
import { hex, toHex } from './bytes.js';
import { allVectors, vectorSample } from './vector-sample.js';
import gcm from '../vectors/wycheproof-jwe/aes_gcm_test.json';
import kw from '../vectors/wycheproof-jwe/aes_wrap_test.json';
import cbc from '../vectors/wycheproof-jwe/aes_cbc_pkcs5_test.json';
import oaep from '../vectors/wycheproof-jwe/rsa_oaep_2048_sha256_mgf1sha256_test.json';
import p256 from '../vectors/wycheproof-jwe/ecdh_secp256r1_webcrypto_test.json';
import p384 from '../vectors/wycheproof-jwe/ecdh_secp384r1_webcrypto_test.json';
import x25519 from '../vectors/wycheproof-jwe/x25519_test.json';

type Result = 'valid' | 'invalid' | 'acceptable';
interface T {
  tcId: number;
  result: Result;
  flags: string[];
  [k: string]: unknown;
}
interface G {
  keySize?: number;
  ivSize?: number;
  tests: T[];
  [k: string]: unknown;
}
const groups = (f: unknown): G[] => (f as { testGroups: G[] }).testGroups;

/** The primitive's answer, or its error code: it may throw at once or reject. */
async function outcome(run: () => Uint8Array | Promise<Uint8Array>): Promise<Uint8Array | string> {
  try {
    return await run();
  } catch (e) {
    return (e as { code?: string }).code ?? 'THROWN';
  }
}

function judge(t: T, got: Uint8Array | string, expected: string): void {
  const label = `tcId ${t.tcId} ${t.flags.join(',')}`;
  if (t.result === 'valid') {
    expect(typeof got === 'string' ? got : toHex(got), label).toBe(expected);
  } else if (t.result === 'invalid') {
    expect(typeof got, label).toBe('string');
  } else if (typeof got !== 'string') {
    expect(toHex(got), label).toBe(expected);
  }
}

function b64u(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

describe('Wycheproof primitives on the JWE code paths', () => {
  it(
    'AES-GCM (128/256-bit keys, 96-bit IV, 128-bit tag): ' + 'aesGcmDecrypt; other IV sizes refused by decryptContent',
    async () => {
      let checked = 0;
      let refusedIv = 0;
      let aes192 = 0;
      for (const g of groups(gcm)) {
        for (const t of g.tests) {
          if (g.keySize === 192) {
            aes192++;
            continue;
          }
          const key = hex(t.key as string);
          const iv = hex(t.iv as string);
          if (g.ivSize !== 96) {
            // A JWE's IV is exactly 96 bits: anything else never reaches AES.
            const spec = encSpec(key.length === 16 ? 'A128GCM' : 'A256GCM')!;
            expect(
              await outcome(() =>
                decryptContent(spec, key, hex(t.aad as string), {
                  iv,
                  ciphertext: hex(t.ct as string),
                  tag: hex(t.tag as string),
                }),
              ),
            ).toBe('ERR_JWE_DECRYPTION_FAILED');
            refusedIv++;
            continue;
          }
          judge(
            t,
            await outcome(() =>
              aesGcmDecrypt(key, iv, hex(t.aad as string), hex(t.ct as string), hex(t.tag as string)),
            ),
            t.msg as string,
          );
          checked++;
        }
      }
      expect([checked, refusedIv, checked + refusedIv + aes192]).toEqual([
        133,
        80,
        (gcm as { numberOfTests: number }).numberOfTests,
      ]);
    },
  );

  it('AES key wrap (RFC 3394, 128/256-bit KEKs): aesKwUnwrap', async () => {
    let checked = 0;
    for (const g of groups(kw)) {
      if (g.keySize === 192) continue;
      for (const t of g.tests) {
        const kek = await crypto.subtle.importKey('raw', hex(t.key as string) as BufferSource, 'AES-KW', false, [
          'unwrapKey',
        ]);
        const ct = hex(t.ct as string);
        judge(t, await outcome(() => aesKwUnwrap(kek, ct, Math.max(0, ct.length - 8))), t.msg as string);
        checked++;
      }
    }
    expect(checked).toBe(110);
  });

  it('AES-CBC with PKCS#5 padding (128/256-bit keys, as in A128CBC-HS256 / A256CBC-HS512): aesCbcDecrypt', async () => {
    let checked = 0;
    for (const g of groups(cbc)) {
      if (g.keySize === 192) continue;
      for (const t of g.tests) {
        judge(
          t,
          await outcome(() => aesCbcDecrypt(hex(t.key as string), hex(t.iv as string), hex(t.ct as string))),
          t.msg as string,
        );
        checked++;
      }
    }
    expect(checked).toBe(144);
  });

  it('RSA-OAEP-256 (2048-bit, no label as JWE uses it): rsaOaepDecrypt', async () => {
    let checked = 0;
    let labelled = 0;
    for (const g of groups(oaep)) {
      const { key_ops: _o, alg: _a, ...jwk } = g.privateKeyJwk as Record<string, unknown>;
      const key = await crypto.subtle.importKey(
        'jwk',
        jwk as JsonWebKey,
        { name: 'RSA-OAEP', hash: 'SHA-256' },
        false,
        ['decrypt'],
      );
      for (const t of g.tests) {
        if ((t.label as string) !== '') {
          labelled++;
          continue;
        }
        judge(t, await outcome(() => rsaOaepDecrypt(key, hex(t.ct as string))), t.msg as string);
        checked++;
      }
    }
    expect([checked, labelled]).toEqual([29, 8]);
  });

  for (const [name, file, count] of [
    ['P-256', p256, 353],
    ['P-384', p384, 794],
  ] as const) {
    it(
      `ECDH ${name} (WebCrypto JWK encodings): JweKey.unwrap('ECDH-ES') yields the Concat KDF of the expected ` +
        `secret`,
      async () => {
        const spec = encSpec('A256GCM')!;
        const seen = new Map<string, number>();
        let read = 0;
        let checked = 0;
        let refusable = 0;
        for (const g of groups(file)) {
          read += g.tests.length;
          for (const t of vectorSample(g.tests, seen)) {
            if (t.result !== 'valid') refusable++;
            const { kid: _k, ...priv } = t.private as Record<string, unknown>;
            const got = await outcome(() =>
              (async () => {
                const key = new JweKey(priv as unknown as EncryptionJWK, 'decrypt');
                return (await key.unwrap('ECDH-ES', spec, { epk: t.public }, new Uint8Array(0))) as Uint8Array;
              })(),
            );
            const expected =
              t.result === 'invalid'
                ? ''
                : toHex(concatKdf(hex(t.shared as string), 'A256GCM', new Uint8Array(0), new Uint8Array(0), 32));
            judge(t, got, expected);
            checked++;
          }
        }
        // Every case read; every case not plainly valid checked in every runtime, all of them in Node.
        expect(read).toBe(count);
        expect(refusable).toBe(
          groups(file)
            .flatMap((g) => g.tests)
            .filter((t) => t.result !== 'valid').length,
        );
        if (allVectors) expect(checked).toBe(count);
      },
    );
  }

  it('X25519: JweKey.unwrap(ECDH-ES) agrees on every valid case, refuses zero shared secrets', async () => {
    const spec = encSpec('A128GCM')!;
    const PKCS8_X25519 = '302e020100300506032b656e04220420';
    let checked = 0;
    for (const g of groups(x25519)) {
      for (const t of g.tests) {
        const pkcs8 = await crypto.subtle.importKey(
          'pkcs8',
          hex(PKCS8_X25519 + (t.private as string)) as BufferSource,
          { name: 'X25519' },
          true,
          ['deriveBits'],
        );
        const {
          key_ops: _o,
          ext: _e,
          ...jwk
        } = (await crypto.subtle.exportKey('jwk', pkcs8)) as Record<string, unknown>;
        const key = new JweKey(jwk as unknown as EncryptionJWK, 'decrypt');
        const got = await outcome(
          () =>
            key.unwrap(
              'ECDH-ES',
              spec,
              { epk: { kty: 'OKP', crv: 'X25519', x: b64u(hex(t.public as string)) } },
              new Uint8Array(0),
            ) as Promise<Uint8Array>,
        );
        if (t.flags.includes('ZeroSharedSecret')) {
          expect(got, `tcId ${t.tcId}`).toBe('ERR_JWE_EPK_INVALID');
        } else {
          judge(t, got, toHex(concatKdf(hex(t.shared as string), 'A128GCM', new Uint8Array(0), new Uint8Array(0), 16)));
        }
        checked++;
      }
    }
    expect(checked).toBe(518);
  });
});
