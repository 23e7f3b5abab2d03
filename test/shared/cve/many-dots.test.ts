// Many dots, huge segments: golang-jwt CVE-2025-30204, go-jose CVE-2025-27144 and
// golang.org/x/oauth2/jws CVE-2025-22868 split a hostile token on '.' before bounding it,
// so a header of megabytes of periods cost an allocation per period. edgejwt bounds the
// length first (src/jws.ts split: the length, then at most three indexOf scans, no split),
// and the bound itself is capped at 65536 characters: the work on any input is bounded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier, decodeUnverified, jweDecryption } from '../../../src/index.js';
import { claims, codeOfSync, nowDate } from '../jwt-mint.js';
import { HS_ISS, hsGuard, liveClaims, macToken } from './cve-kit.js';

const secret = crypto.getRandomValues(new Uint8Array(32));
const verifier = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, cache: false });
const decryption = jweDecryption({ keys: [secret] });
const withJwe = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, cache: false, decryption });
const CAP = 16_384;

describe('CVE-2025-30204 golang-jwt, CVE-2025-27144 go-jose, CVE-2025-22868 x/oauth2/jws: many dots', () => {
  it('length_bounded_before_any_scan: 1 MiB of periods, or one 1 MiB segment, is ERR_JWT_TOO_LARGE everywhere', () => {
    const dots = '.'.repeat(1 << 20);
    const segment = `${'A'.repeat(1 << 20)}.e30.AAAA`;
    for (const t of [dots, segment, `Bearer ${dots}`]) {
      expect(codeOfSync(() => verifier.verifySync(t))).toBe('ERR_JWT_TOO_LARGE');
      expect(codeOfSync(() => withJwe.verifySync(t))).toBe('ERR_JWT_TOO_LARGE');
      expect(codeOfSync(() => decodeUnverified(t))).toBe('ERR_JWT_TOO_LARGE');
    }
  });

  it('content_never_read_past_the_cap: any text one character over the cap gets the same code (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'.A-_ é'), minLength: 1, maxLength: 64 }), (motif) => {
        const t = motif.repeat(Math.ceil((CAP + 1) / motif.length)).slice(0, CAP + 1);
        expect(codeOfSync(() => verifier.verifySync(t))).toBe('ERR_JWT_TOO_LARGE');
      }),
      { numRuns: 200 },
    );
  });

  it('the_cap_is_capped: maxTokenLength above 65536 is refused, so no option unbounds the work', () => {
    for (const maxTokenLength of [65_537, Infinity]) {
      const options = { algorithms: ['HS256'] as const, key: secret, maxTokenLength };
      expect(codeOfSync(() => createVerifier(options))).toBe('ERR_OPTIONS_INVALID');
    }
    const widest = createVerifier({ algorithms: ['HS256'], key: secret, maxTokenLength: 65_536 });
    expect(codeOfSync(() => widest.verifySync('.'.repeat(65_537)))).toBe('ERR_JWT_TOO_LARGE');
  });

  it('many_dots_under_the_cap_malformed: any dot count but the JWS (or JWE) one is malformed', async () => {
    const good = await macToken(secret, {}, claims());
    expect(verifier.verifySync(good).payload.sub).toBe('user-1');
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[\w-]{0,6}$/), { minLength: 1, maxLength: 400 }), (segments) => {
        fc.pre(segments.length !== 3 && segments.length !== 5);
        const t = segments.join('.');
        expect(codeOfSync(() => verifier.verifySync(t))).toBe('ERR_JWT_MALFORMED');
        expect(codeOfSync(() => withJwe.verifySync(t))).toBe('ERR_JWT_MALFORMED');
      }),
      { numRuns: 300 },
    );
    expect(codeOfSync(() => verifier.verifySync('.'.repeat(CAP)))).toBe('ERR_JWT_MALFORMED');
  });

  it('guard_refuses_many_dots: 1 MiB of periods, or periods under the cap, is a 401 never forwarded', async () => {
    const g = await hsGuard(secret);
    expect((await g.send(await macToken(secret, {}, liveClaims(HS_ISS)))).status).toBe(200);
    for (const t of ['.'.repeat(1 << 20), '.'.repeat(CAP - 1), `${'A'.repeat(1 << 20)}.e30.AAAA`]) {
      expect((await g.send(t)).status).toBe(401);
    }
    expect(g.originCalls()).toBe(1);
  });
});
