// A guard failure that is not the token's fault (the Wasm core, the options, an
// unexpected exception) is a 500 with one log line naming the code, never a 401
// that blames the caller (issue 22, item 10).
import { beforeAll, describe, expect, it } from 'vitest';
import { JwtError } from '../../src/errors.js';
import { TestCtx, baseConfig, bearer, demoKeys, makeGuard, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

describe("faults that are not the caller's", () => {
  const faults: [string, () => unknown][] = [
    [
      'ERR_WASM_CORE',
      () => new JwtError('ERR_WASM_CORE', { reason: 'the Wasm core could not be compiled or instantiated here' }),
    ],
    ['ERR_OPTIONS_INVALID', () => new JwtError('ERR_OPTIONS_INVALID', { setting: 'issuers' })],
    ['internal_error', () => new TypeError('backend threw')],
  ];
  for (const [code, make] of faults) {
    for (const when of ['open', 'verifyOpened sync', 'verifyOpened async'] as const) {
      it(
        `internal_fault_is_500_not_401: ${code} thrown from ${when} is a 500 with one log line naming ` + `it`,
        async () => {
          const g = await makeGuard(k);
          const real = g.guard.parts.verifier;
          g.guard.parts.verifier = {
            open:
              when === 'open'
                ? () => {
                    throw make();
                  }
                : (t: string) => real.open(t),
            verifyOpened:
              when === 'verifyOpened sync'
                ? () => {
                    throw make();
                  }
                : () => Promise.reject(make()),
          } as never;
          const t = await token(k.hs);
          const res = await g.send('/x', bearer(t));
          expect(res.status).toBe(500);
          expect(res.headers.get('www-authenticate')).toBeNull();
          expect(((await res.json()) as { error: string }).error).toBe('server_error');
          const lines = g.logs.filter((l) => l.includes(code));
          expect(lines).toHaveLength(1);
          expect(JSON.parse(lines[0]!)).toMatchObject({ edgejwt: 'error', code });
          expect(g.logs.some((l) => l.includes('"rejected"'))).toBe(false);
          expect(g.guard.counters.get('internal_error')).toBe(1);
          // authenticate (the embedded API) answers the same 500 instead of throwing.
          const o = await g.guard.authenticate(new Request('https://api.example.com/x', bearer(t)), new TestCtx());
          expect(o.ok).toBe(false);
          if (!o.ok) expect(o.response.status).toBe(500);
        },
      );
    }
  }

  it("internal_fault_is_500_not_401: the token's own faults are still 401", async () => {
    const g = await makeGuard(k);
    const res = await g.send('/x', bearer(await token(k.hs, { exp: 1 })));
    expect(res.status).toBe(401);
  });

  it('cors_vary_on_every_response: a fault (500) varies by Origin too', async () => {
    const g = await makeGuard(k, { config: baseConfig(k, { cors: { allowOrigins: ['https://app.example.com'] } }) });
    g.guard.parts.verifier = {
      open: () => {
        throw new TypeError('boom');
      },
      verifyOpened: () => {
        throw new TypeError('boom');
      },
    } as never;
    const res = await g.send('/x', bearer(await token(k.hs)));
    expect(res.status).toBe(500);
    expect(res.headers.get('vary')).toBe('Origin');
  });
});
