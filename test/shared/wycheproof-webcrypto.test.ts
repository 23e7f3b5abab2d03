// Wycheproof ECDSA (P1363), RSA PKCS#1 v1.5 and RSA-PSS files through the
// signature step of the verify path (key import, exact lengths, backend verify).
// Their messages are arbitrary bytes, which no JWS signing input can be, so each
// case goes through the same step a token does, fed the message bytes. Every case
// in Node; elsewhere every case not plainly valid and a fixed sample of the rest (vector-sample.ts).
import { describe, expect, it } from 'vitest';
import type { JWK } from '../../src/keys/entry.js';
import { keyEntryFromJwk } from '../../src/keys/from-input.js';
import { verifySignatureBytes } from './signature-hooks.js';
import { hex } from './bytes.js';
import { b64u } from './jwt-mint.js';
import { allVectors, vectorSample } from './vector-sample.js';
import p256 from '../vectors/wycheproof/ecdsa_secp256r1_sha256_p1363_test.json';
import p384 from '../vectors/wycheproof/ecdsa_secp384r1_sha384_p1363_test.json';
import p521 from '../vectors/wycheproof/ecdsa_secp521r1_sha512_p1363_test.json';
import pss1 from '../vectors/wycheproof/rsa_pss_2048_sha256_mgf1_32_test.json';
import pss2 from '../vectors/wycheproof/rsa_pss_2048_sha384_mgf1_48_test.json';
import pss3 from '../vectors/wycheproof/rsa_pss_3072_sha256_mgf1_32_test.json';
import pss4 from '../vectors/wycheproof/rsa_pss_4096_sha256_mgf1_32_test.json';
import pss5 from '../vectors/wycheproof/rsa_pss_4096_sha384_mgf1_48_test.json';
import pss6 from '../vectors/wycheproof/rsa_pss_4096_sha512_mgf1_64_test.json';
import rs1 from '../vectors/wycheproof/rsa_signature_2048_sha256_test.json';
import rs2 from '../vectors/wycheproof/rsa_signature_2048_sha384_test.json';
import rs3 from '../vectors/wycheproof/rsa_signature_2048_sha512_test.json';
import rs4 from '../vectors/wycheproof/rsa_signature_3072_sha256_test.json';
import rs5 from '../vectors/wycheproof/rsa_signature_3072_sha384_test.json';
import rs6 from '../vectors/wycheproof/rsa_signature_3072_sha512_test.json';
import rs7 from '../vectors/wycheproof/rsa_signature_4096_sha256_test.json';
import rs8 from '../vectors/wycheproof/rsa_signature_4096_sha384_test.json';
import rs9 from '../vectors/wycheproof/rsa_signature_4096_sha512_test.json';

interface WpFile {
  numberOfTests: number;
  testGroups: {
    publicKeyJwk?: JWK;
    keyJwk?: JWK;
    publicKey?: { curve?: string; uncompressed?: string };
    tests: { tcId: number; msg: string; sig: string; result: string; flags: string[] }[];
  }[];
}

const FILES: [string, string, unknown][] = [
  ['ES256', 'ecdsa P-256', p256],
  ['ES384', 'ecdsa P-384', p384],
  ['ES512', 'ecdsa P-521', p521],
  ['PS256', 'pss 2048 sha256', pss1],
  ['PS384', 'pss 2048 sha384', pss2],
  ['PS256', 'pss 3072 sha256', pss3],
  ['PS256', 'pss 4096 sha256', pss4],
  ['PS384', 'pss 4096 sha384', pss5],
  ['PS512', 'pss 4096 sha512', pss6],
  ['RS256', 'pkcs1 2048 sha256', rs1],
  ['RS384', 'pkcs1 2048 sha384', rs2],
  ['RS512', 'pkcs1 2048 sha512', rs3],
  ['RS256', 'pkcs1 3072 sha256', rs4],
  ['RS384', 'pkcs1 3072 sha384', rs5],
  ['RS512', 'pkcs1 3072 sha512', rs6],
  ['RS256', 'pkcs1 4096 sha256', rs7],
  ['RS384', 'pkcs1 4096 sha384', rs8],
  ['RS512', 'pkcs1 4096 sha512', rs9],
];

const CURVES: Record<string, string> = { secp256r1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/** Some ECDSA groups ship only the SEC1 point: 04 || x || y. */
function jwkFromPoint(pk: { curve?: string; uncompressed?: string }): JWK {
  const point = hex(pk.uncompressed!);
  const size = (point.length - 1) / 2;
  return {
    kty: 'EC',
    crv: CURVES[pk.curve!]!,
    x: b64u(point.subarray(1, 1 + size)),
    y: b64u(point.subarray(1 + size)),
  };
}

describe('Wycheproof primitive files through the WebCrypto/node:crypto step', () => {
  for (const [alg, name, data] of FILES) {
    it(`${alg} ${name}: every verdict holds`, async () => {
      const file = data as WpFile;
      const seen = new Map<string, number>();
      let count = 0;
      let checked = 0;
      for (const g of file.testGroups) {
        const key = keyEntryFromJwk(g.publicKeyJwk ?? g.keyJwk ?? jwkFromPoint(g.publicKey!));
        count += g.tests.length;
        for (const t of vectorSample(g.tests, seen)) {
          checked++;
          const ok = await verifySignatureBytes(key, alg, hex(t.msg), hex(t.sig)).catch(() => false);
          if (t.result !== 'acceptable') expect.soft(ok, `tcId ${t.tcId}`).toBe(t.result === 'valid');
        }
      }
      expect(count).toBe(file.numberOfTests);
      if (allVectors) expect(checked).toBe(count);
    });
  }
});
