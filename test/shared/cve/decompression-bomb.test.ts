// Decompression bombs: a compact JWE with `zip: "DEF"` whose few kilobytes of ciphertext
// inflate to megabytes after decryption (jose CVE-2024-28176; python-jose CVE-2024-33664;
// jwcrypto CVE-2026-39373, where a token under the 250 KB input cap still inflated ~400x).
// edgejwt's JWE header check (src/jwe/header.ts) refuses any `zip` before the key is used,
// so nothing is decrypted, let alone inflated. The tokens here are genuinely encrypted
// under the verifier's key: only `zip` can explain the refusal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier, jweDecryption } from '../../../src/index.js';
import { b64u, claims, codeOf, nowDate } from '../jwt-mint.js';
import { AUD, HS_ISS, dirJwe, enc, hsGuard, macToken } from './cve-kit.js';

const INFLATED = 8 << 20; // 8 MiB of claims once inflated

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A claims set of INFLATED bytes (one long claim), deflated: the bomb's plaintext. */
async function bombPlaintext(): Promise<Uint8Array> {
  const head = enc.encode(JSON.stringify(claims({ pad: '' })).slice(0, -2));
  const body = new Uint8Array(INFLATED).fill(0x41);
  const all = new Uint8Array(head.length + body.length + 2);
  all.set(head);
  all.set(body, head.length);
  all.set(enc.encode('"}'), head.length + body.length);
  return deflateRaw(all);
}

const key = crypto.getRandomValues(new Uint8Array(32));
const secret = crypto.getRandomValues(new Uint8Array(32));
const decryption = jweDecryption({ keys: [key] });
const verifier = () => createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, decryption });

describe('CVE-2024-28176 jose, CVE-2024-33664 python-jose, CVE-2026-39373 jwcrypto: JWE zip bomb', () => {
  it('jwe_zip_refused_before_decryption: an 8 MiB claims set deflated into a token under the length cap', async () => {
    const compressed = await bombPlaintext();
    const bomb = await dirJwe(key, { zip: 'DEF' }, compressed);
    // The attack's premise holds: the token fits the default cap (16384) while its plaintext inflates ~1000x.
    expect(bomb.length).toBeLessThan(16_384);
    expect(INFLATED / compressed.length).toBeGreaterThan(500);
    expect(await codeOf(() => verifier().verify(bomb))).toBe('ERR_JWE_ZIP_UNSUPPORTED');
    // The same key opens a plain token: the setup is sound, the refusal is the zip header's.
    const plain = await dirJwe(key, {}, enc.encode(JSON.stringify(claims())));
    expect((await verifier().verify(plain)).payload.sub).toBe('user-1');
  });

  it('jwe_zip_refused_whatever_the_size: a small, honest compressed nested JWT is refused the same way', async () => {
    const inner = await macToken(secret, {}, claims());
    const small = await dirJwe(key, { zip: 'DEF', cty: 'JWT' }, await deflateRaw(enc.encode(inner)));
    expect(await codeOf(() => verifier().verify(small))).toBe('ERR_JWE_ZIP_UNSUPPORTED');
  });

  it('jwe_zip_any_value_refused: every value of zip, even with a ciphertext no key opens (fast-check)', async () => {
    const named = fc.constantFrom('DEF', 'def', '', 'GZIP', 'none');
    const object = fc.dictionary(fc.string(), fc.string());
    const other = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), object);
    const zipValue = fc.oneof(named, other);
    await fc.assert(
      fc.asyncProperty(zipValue, fc.uint8Array({ minLength: 1, maxLength: 64 }), async (zip, junk) => {
        const h = b64u(JSON.stringify({ alg: 'dir', enc: 'A256GCM', zip }));
        const token = `${h}..${b64u(new Uint8Array(12))}.${b64u(junk)}.${b64u(new Uint8Array(16))}`;
        expect(await codeOf(() => verifier().verify(token))).toBe('ERR_JWE_ZIP_UNSUPPORTED');
      }),
      { numRuns: 100 },
    );
  });

  it('jws_zip_never_inflates: a signed token with zip DEF and a deflated payload is never inflated', async () => {
    const deflated = await deflateRaw(enc.encode(JSON.stringify(claims())));
    const params = { name: 'HMAC', hash: 'SHA-256' };
    const key256 = await crypto.subtle.importKey('raw', secret as BufferSource, params, false, ['sign']);
    const input = `${b64u(JSON.stringify({ alg: 'HS256', zip: 'DEF' }))}.${b64u(deflated)}`;
    const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key256, enc.encode(input)));
    expect(await codeOf(() => verifier().verify(`${input}.${b64u(sig)}`))).toBe('ERR_JWT_PAYLOAD_INVALID');
  });

  it('guard_never_decrypts: the guard answers 401 to the bomb and to any 5-segment token', async () => {
    const g = await hsGuard(secret);
    expect((await g.send(await dirJwe(key, { zip: 'DEF' }, await bombPlaintext()))).status).toBe(401);
    const plain = await dirJwe(key, {}, enc.encode(JSON.stringify(claims({ iss: HS_ISS, aud: AUD }))));
    expect((await g.send(plain)).status).toBe(401);
  });
});
