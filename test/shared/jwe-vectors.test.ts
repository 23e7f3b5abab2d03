// Public JWE vectors through the decryptor createVerifier uses: RFC 7520 §5 (JOSE
// Cookbook) compact examples, and every case of Wycheproof's
// json_web_encryption_test.json. Valid cases whose algorithms are supported must
// decrypt to the expected plaintext; valid cases outside the allow-list are refused
// with ERR_JWE_ALG_NOT_ALLOWED (or their named code); every invalid case is refused.
import { describe, expect, it } from 'vitest';
import { createDecryptor } from '../../src/jwe/decrypt.js';
import { CONTENT_ENCRYPTION, KEY_MANAGEMENT } from '../../src/jwe/algorithms.js';
import type { EncryptionJWK } from '../../src/jwe/keys.js';
import { hex, toHex } from './bytes.js';
import { codeOf } from './jwt-mint.js';
import wycheproof from '../vectors/wycheproof-jwe/json_web_encryption_test.json';
import c51 from '../vectors/jose-cookbook-jwe/5_1.key_encryption_using_rsa_v15_and_aes-hmac-sha2.json';
import c52 from '../vectors/jose-cookbook-jwe/5_2.key_encryption_using_rsa-oaep_with_aes-gcm.json';
import c53 from '../vectors/jose-cookbook-jwe/5_3.key_wrap_using_pbes2-aes-keywrap_with-aes-cbc-hmac-sha2.json';
import c54 from '../vectors/jose-cookbook-jwe/5_4.key_agreement_with_key_wrapping_using_ecdh-es_and_aes-keywrap_with_aes-gcm.json';
import c55 from '../vectors/jose-cookbook-jwe/5_5.key_agreement_using_ecdh-es_with_aes-cbc-hmac-sha2.json';
import c56 from '../vectors/jose-cookbook-jwe/5_6.direct_encryption_using_aes-gcm.json';
import c57 from '../vectors/jose-cookbook-jwe/5_7.key_wrap_using_aes-gcm_keywrap_with_aes-cbc-hmac-sha2.json';
import c58 from '../vectors/jose-cookbook-jwe/5_8.key_wrap_using_aes-keywrap_with_aes-gcm.json';
import c59 from '../vectors/jose-cookbook-jwe/5_9.compressed_content.json';

const decoder = new TextDecoder();

function headerOf(token: string): Record<string, unknown> | undefined {
  try {
    const s = token.slice(0, token.indexOf('.')).replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(
      decoder.decode(Uint8Array.from(atob(s + '='.repeat((4 - (s.length % 4)) % 4)), (c) => c.charCodeAt(0))),
    ) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function supportedAlgs(h: Record<string, unknown> | undefined): boolean {
  return (
    h !== undefined &&
    (KEY_MANAGEMENT as readonly unknown[]).includes(h.alg) &&
    (CONTENT_ENCRYPTION as readonly unknown[]).includes(h.enc)
  );
}

/** Decryptable here: supported algorithms and no compression. */
function supported(h: Record<string, unknown> | undefined): boolean {
  return supportedAlgs(h) && h!.zip === undefined;
}

interface Cookbook {
  title: string;
  input: { plaintext: string; key?: EncryptionJWK; pwd?: string };
  output: { compact: string | null };
}

describe('RFC 7520 §5 (JOSE Cookbook) compact JWE examples', () => {
  const decryptsTo: [string, Cookbook][] = [
    ['5.4 ECDH-ES+A128KW (P-384) with A128GCM', c54 as Cookbook],
    ['5.5 ECDH-ES (P-256) with A128CBC-HS256', c55 as Cookbook],
    ['5.6 dir with A128GCM', c56 as Cookbook],
    ['5.8 A128KW with A128GCM', c58 as Cookbook],
  ];
  for (const [name, v] of decryptsTo) {
    it(`${name}: decrypts to the cookbook plaintext`, async () => {
      const opened = await createDecryptor({ keys: [v.input.key!] }, 65_536).open(v.output.compact!);
      expect(opened.plaintext).toBe(v.input.plaintext);
    });
  }

  const refused: [string, Cookbook, string][] = [
    ['5.1 RSA1_5 (padding oracle)', c51 as Cookbook, 'ERR_JWE_ALG_NOT_ALLOWED'],
    ['5.2 RSA-OAEP with SHA-1 (outside the allow-list)', c52 as Cookbook, 'ERR_JWE_ALG_NOT_ALLOWED'],
    ['5.3 PBES2-HS512+A256KW (unbounded p2c)', c53 as Cookbook, 'ERR_JWE_ALG_NOT_ALLOWED'],
    ['5.7 A256GCMKW (outside the allow-list)', c57 as Cookbook, 'ERR_JWE_ALG_NOT_ALLOWED'],
    ['5.9 zip DEF (compression)', c59 as Cookbook, 'ERR_JWE_ZIP_UNSUPPORTED'],
  ];
  for (const [name, v, code] of refused) {
    it(`${name}: refused with ${code}`, async () => {
      // 5.3 has a password, not a key: any key will do, the header is refused first.
      const key = v.input.key === undefined ? new Uint8Array(32) : v.input.key;
      const d = createDecryptor({ keys: [key] }, 65_536);
      expect(await codeOf(() => d.open(v.output.compact!))).toBe(code);
    });
  }
});

interface WpJweTest {
  tcId: number;
  comment: string;
  pt: string;
  jwe: string | object;
  result: 'valid' | 'invalid';
  flags: string[];
}
interface WpJweGroup {
  private: EncryptionJWK;
  tests: WpJweTest[];
}

describe(
  `Wycheproof json_web_encryption_test.json (` + `${(wycheproof as { numberOfTests: number }).numberOfTests} cases)`,
  () => {
    it('every case: supported valid ones decrypt, the rest are refused with a code', async () => {
      const tally = { decrypted: 0, refusedUnsupported: 0, refusedInvalid: 0 };
      const codes = new Map<string, number>();
      for (const group of (wycheproof as unknown as { testGroups: WpJweGroup[] }).testGroups) {
        for (const t of group.tests) {
          const token = typeof t.jwe === 'string' ? t.jwe : JSON.stringify(t.jwe);
          const h = typeof t.jwe === 'string' ? headerOf(t.jwe) : undefined;
          const label = `tcId ${t.tcId} ${t.comment}`;
          let opened: { plaintext: string } | undefined;
          let code = 'OK';
          try {
            opened = await createDecryptor({ keys: [group.private] }, 65_536).open(token);
          } catch (e) {
            code = (e as { code?: string }).code ?? `THROWN:${String(e)}`;
          }
          if (t.result === 'valid' && supported(h)) {
            expect(code, label).toBe('OK');
            expect(toHex(new TextEncoder().encode(opened!.plaintext)), label).toBe(toHex(hex(t.pt)));
            tally.decrypted++;
          } else if (t.result === 'valid') {
            expect(code, label).toBe(
              h?.zip !== undefined && supportedAlgs(h) ? 'ERR_JWE_ZIP_UNSUPPORTED' : 'ERR_JWE_ALG_NOT_ALLOWED',
            );
            tally.refusedUnsupported++;
          } else {
            expect(code, label).not.toBe('OK');
            expect(code, label).toMatch(/^ERR_/);
            codes.set(code, (codes.get(code) ?? 0) + 1);
            tally.refusedInvalid++;
          }
        }
      }
      expect(tally.decrypted + tally.refusedUnsupported + tally.refusedInvalid).toBe(
        (wycheproof as { numberOfTests: number }).numberOfTests,
      );
      // The same answers in every runtime: 32 decrypt, 33 valid ones use algorithms refused here
      // (A192*, A*GCMKW, RSA-OAEP with SHA-1, RSA1_5, zip), and all 74 invalid ones are refused.
      expect(tally).toEqual({ decrypted: 32, refusedUnsupported: 33, refusedInvalid: 74 });
      // 26 since a CEK of the wrong length fails as any other decryption failure (RFC 7516 §11.5).
      expect(codes.get('ERR_JWE_DECRYPTION_FAILED')).toBe(26);
    });
  },
);
