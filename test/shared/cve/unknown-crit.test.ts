// Unknown `crit` accepted: RFC 7515 §4.1.11 says a recipient that does not understand a
// name listed in `crit` MUST reject the JWS. The advisories' tokens are genuinely signed
// with the verifier's own key, so the only reason to refuse is the `crit` header.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier, jweDecryption } from '../../../src/index.js';
import { claims, codeOf, codeOfSync, generate, nowDate } from '../jwt-mint.js';
import { HS_ISS, dirJwe, enc, hsGuard, liveClaims, macToken } from './cve-kit.js';

const secret = crypto.getRandomValues(new Uint8Array(32));
const verifier = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, cache: false });

/** The advisories' headers: fast-jwt's PoC (x-custom-policy), Authlib's (bork, cnf), PyJWT's (any unknown name). */
const ADVISORY_HEADERS: [string, Record<string, unknown>][] = [
  ['CVE-2026-35042 fast-jwt', { crit: ['x-custom-policy'], 'x-custom-policy': 'require-mfa' }],
  ['CVE-2025-59420 Authlib', { crit: ['bork'], bork: true }],
  ['CVE-2025-59420 Authlib', { crit: ['cnf'], cnf: { jkt: 'thumbprint' } }],
  ['CVE-2026-32597 PyJWT', { crit: ['x-unknown'], 'x-unknown': 1 }],
];

for (const [advisory, header] of ADVISORY_HEADERS) {
  describe(`${advisory}: a token listing an unknown extension in crit was accepted`, () => {
    it(`unknown_crit_refused: crit ${JSON.stringify(header.crit)} signed with the right key`, async () => {
      expect(verifier.verifySync(await macToken(secret, {}, claims())).payload.sub).toBe('user-1');
      const t = await macToken(secret, header, claims({ role: 'admin' }));
      expect(codeOfSync(() => verifier.verifySync(t))).toBe('ERR_JWS_CRIT_UNSUPPORTED');
      expect(await codeOf(() => verifier.verify(t))).toBe('ERR_JWS_CRIT_UNSUPPORTED');
    });
  });
}

describe('CVE-2026-35042 fast-jwt, CVE-2026-32597 PyJWT, CVE-2025-59420 Authlib: crit in every form', () => {
  it('any_crit_never_accepted: every crit list of names present in the header is refused (fast-check)', async () => {
    const name = fc.string({ minLength: 1, maxLength: 12 }).filter((n) => n !== '__proto__');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(name, { minLength: 1, maxLength: 4 }), async (names) => {
        const header: Record<string, unknown> = { crit: names };
        for (const n of names) if (!(n in header) && n !== 'alg') header[n] = true;
        const t = await macToken(secret, header, claims());
        const code = codeOfSync(() => verifier.verifySync(t));
        expect(['ERR_JWS_CRIT_UNSUPPORTED', 'ERR_JWS_HEADER_INVALID']).toContain(code);
      }),
      { numRuns: 150 },
    );
  });

  it("guard_refuses_unknown_crit: the guard answers 401 to the advisories' tokens, 200 without crit", async () => {
    const hs = await generate('HS256');
    const g = await hsGuard(hs.secret!);
    expect((await g.send(await macToken(hs.secret!, {}, liveClaims(HS_ISS)))).status).toBe(200);
    for (const [, header] of ADVISORY_HEADERS) {
      expect((await g.send(await macToken(hs.secret!, header, liveClaims(HS_ISS)))).status).toBe(401);
    }
  });

  it('jwe_crit_refused: an encrypted token with crit is refused before it is decrypted', async () => {
    const key = crypto.getRandomValues(new Uint8Array(32));
    const decryption = jweDecryption({ keys: [key] });
    const v = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, decryption });
    const inner = await macToken(secret, {}, claims());
    expect((await v.verify(await dirJwe(key, { cty: 'JWT' }, enc.encode(inner)))).payload.sub).toBe('user-1');
    const t = await dirJwe(key, { cty: 'JWT', crit: ['x-custom-policy'], 'x-custom-policy': 1 }, enc.encode(inner));
    expect(await codeOf(() => v.verify(t))).toBe('ERR_JWE_CRIT_UNSUPPORTED');
  });
});
