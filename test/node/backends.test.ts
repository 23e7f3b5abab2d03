// Node-specific backend facts: under the `node` condition RS/PS/ES verify through
// node:crypto synchronously, and the WebCrypto backend (what workerd, Deno and
// browsers use) reaches the same verdicts on the Wycheproof primitive files.
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign } from 'node:crypto';
import { createVerifier, type JWK } from '../../src/index.js';
import { algSpec } from '../../src/algorithms.js';
import { backend as nodeBackend } from '../../src/backend/node.js';
import { backend as webBackend } from '../../src/backend/webcrypto.js';
import type { PublicJwk } from '../../src/backend/types.js';
import { hex } from '../shared/bytes.js';
import p256 from '../vectors/wycheproof/ecdsa_secp256r1_sha256_p1363_test.json';
import pss from '../vectors/wycheproof/rsa_pss_2048_sha256_mgf1_32_test.json';
import pkcs1 from '../vectors/wycheproof/rsa_signature_2048_sha256_test.json';

describe('node:crypto backend', () => {
  it('verifySync serves RS256, PS256 and ES256 with no promise', () => {
    const b64u = (b: Buffer) => b.toString('base64url');
    for (const [alg, pair, opts] of [
      ['RS256', generateKeyPairSync('rsa', { modulusLength: 2048 }), {}],
      ['PS256', generateKeyPairSync('rsa', { modulusLength: 2048 }), { padding: 6, saltLength: 32 }],
      ['ES256', generateKeyPairSync('ec', { namedCurve: 'P-256' }), { dsaEncoding: 'ieee-p1363' as const }],
    ] as const) {
      const input =
        `${b64u(Buffer.from(JSON.stringify({ alg })))}.` +
        `${b64u(Buffer.from(JSON.stringify({ sub: 'x', exp: 4e9 })))}`;
      const token = `${input}.${b64u(sign('sha256', Buffer.from(input), { key: pair.privateKey, ...opts }))}`;
      const v = createVerifier({ algorithms: [alg], key: pair.publicKey.export({ format: 'jwk' }) as JWK });
      const r = v.verifySync(token);
      expect(r).not.toBeInstanceOf(Promise);
      expect(r.payload.sub).toBe('x');
    }
  });
});

interface WpFile {
  testGroups: {
    publicKeyJwk?: PublicJwk;
    keyJwk?: PublicJwk;
    tests: { tcId: number; msg: string; sig: string; result: string }[];
  }[];
}

describe('WebCrypto backend agrees with node:crypto on Wycheproof files', () => {
  for (const [alg, file] of [
    ['ES256', p256],
    ['PS256', pss],
    ['RS256', pkcs1],
  ] as const) {
    it(`${alg}`, async () => {
      const spec = algSpec(alg)!;
      let n = 0;
      for (const g of (file as unknown as WpFile).testGroups) {
        const jwk = g.publicKeyJwk ?? g.keyJwk;
        if (jwk === undefined) continue;
        const pub =
          jwk.kty === 'EC'
            ? { kty: 'EC' as const, crv: jwk.crv, x: jwk.x, y: jwk.y }
            : { kty: 'RSA' as const, n: jwk.n, e: jwk.e };
        const web = await webBackend.importJwk(spec, pub);
        const nod = nodeBackend.importJwk(spec, pub) as Awaited<ReturnType<typeof nodeBackend.importJwk>>;
        for (const t of g.tests) {
          const msg = hex(t.msg);
          const sig = hex(t.sig);
          // The verifier checks exact lengths first; do the same here.
          if (spec.sigLength !== 0 && sig.length !== spec.sigLength) continue;
          const a = await Promise.resolve(webBackend.verify(spec, web, msg, sig)).catch(() => false);
          const b = await Promise.resolve(nodeBackend.verify(spec, nod, msg, sig)).catch(() => false);
          if (t.result !== 'acceptable') {
            expect.soft(a, `web tcId ${t.tcId}`).toBe(t.result === 'valid');
            expect.soft(b, `node tcId ${t.tcId}`).toBe(t.result === 'valid');
          }
          n++;
        }
      }
      expect(n).toBeGreaterThan(100);
    });
  }
});
