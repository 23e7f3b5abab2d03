// HS384 and HS512 run on the core's SHA-512 code with their own initial values; the
// HS256 known answer never reaches it. A guard whose config uses HS384/HS512 runs that
// hash's known answer in its self-test too (self-test.ts, self-test-needed.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGuard } from '../../src/worker/api.js';
import { miscompileHmac } from '../shared/miscompiled-hmac.js';
import { b64u, generate, mint } from '../shared/jwt-mint.js';
import { AUD, HS_ISS, TestCtx, bearer, nowSeconds } from './harness.js';

afterEach(() => vi.restoreAllMocks());

describe('self_test_covers_hs384_hs512_in_use', () => {
  for (const [alg, hash] of [
    ['HS384', 'SHA-384'],
    ['HS512', 'SHA-512'],
  ] as const) {
    it(
      `${alg}: a core whose HMAC-${hash} accepts any tag fails the self-test; a forged token is never ` + `served`,
      async () => {
        const lines: string[] = [];
        vi.spyOn(console, 'error').mockImplementation((l: string) => void lines.push(l));
        const raw = {
          issuers: [{ issuer: HS_ISS, audience: AUD, algorithms: [alg], secretBinding: 'HS_KEY' }],
          origin: 'builtin:echo',
          cache: { jwks: false },
        };
        const worker = createGuard(raw, { stages: [] });
        const secret = crypto.getRandomValues(new Uint8Array(64));
        const env = { HS_KEY: b64u(secret) };
        // Miscompiled: HMAC over this one hash accepts every tag (the SHA-256 one is sound).
        miscompileHmac(hash, vi.spyOn as never);
        const t = nowSeconds();
        const forged = await mint(
          await generate(alg, { secretLength: 64 }),
          { iss: HS_ISS, aud: AUD, sub: 'attacker', iat: t, exp: t + 600 },
          { typ: 'JWT' },
        );
        const res = await worker.fetch(new Request('https://api.example.com/x', bearer(forged)), env, new TestCtx());
        expect(res.status).toBe(500);
        expect(await res.text()).not.toContain('attacker');
        expect(lines.some((l) => (JSON.parse(l) as { setting?: string }).setting === 'self-test')).toBe(true);
      },
    );
  }
});
