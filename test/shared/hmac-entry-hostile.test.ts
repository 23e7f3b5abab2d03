// edgejwt/hmac against the main entry under hostile headers: tokens SIGNED with the
// verifier's own secret (so they reach the alg, key, signature and claims checks, not
// only the decoder) whose protected header an attacker chose: alg in other spellings,
// case or types, `none`, asymmetric algs, crit, b64, kid/typ of any type, duplicate
// members, non-JSON text. Both entries must give the same result or the same error,
// one token at a time and over a sequence through the SAME verifier (its cache and the
// core's resident token carry state between verifies). A token one entry accepts and
// the other refuses is an alg-confusion bug in one of them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createVerifier as mainVerifier } from '../../src/index.js';
import { createVerifier as hmacVerifier } from '../../src/hmac/index.js';
import { hmacPolicy } from '../../src/hmac/source.js';
import { buildPolicy } from '../../src/options.js';
import { buildTwoStepVerifier } from '../../src/verify-path.js';
import { b64u, claims, nowDate } from './jwt-mint.js';

const HASHES = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' } as const;
type Hs = keyof typeof HASHES;
const HS = Object.keys(HASHES) as Hs[];
const enc = new TextEncoder();

interface Verify {
  verifySync(t: string): unknown;
}

/** The result as JSON, or the JwtError's code, message, setting and claim; anything else is rethrown. */
function outcome(run: () => unknown): string {
  try {
    return JSON.stringify({ ok: run() });
  } catch (e) {
    const err = e as { code?: string; message?: string; setting?: string; claim?: string };
    if (typeof err.code !== 'string') throw e;
    return JSON.stringify({ code: err.code, message: err.message, setting: err.setting, claim: err.claim });
  }
}

/** `alg` as an attacker may send it: real names, other spellings, other types. */
const hostileAlg = fc.oneof(
  fc.constantFrom<unknown>(...HS),
  fc.constantFrom<unknown>(
    'hs256',
    'Hs256',
    'HS256 ',
    ' HS256',
    'HS256\u0000',
    'HS2560',
    'HS25',
    'HS256\u200b',
    'ＨＳ256',
    'HS256\n',
  ),
  fc.constantFrom<unknown>('none', 'None', 'NONE', '', 'EdDSA', 'Ed25519', 'RS256', 'PS256', 'ES256', 'dir', 'A128KW'),
  fc.constantFrom<unknown>('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'),
  fc.constantFrom<unknown>(null, 256, true, ['HS256'], { HS256: true }),
);

/** Extra protected-header members, each hostile in its own way. */
const extraMember = fc.oneof(
  fc.constantFrom<[string, unknown]>(
    ['crit', ['exp']],
    ['crit', []],
    ['crit', 'b64'],
    ['crit', ['b64']],
    ['b64', false],
    ['b64', true],
    ['b64', 'false'],
    ['kid', 42],
    ['kid', ''],
    ['kid', 'k'.repeat(300)],
    ['typ', 7],
    ['typ', 'JWT'],
    ['typ', 'at+jwt'],
    ['jwk', { kty: 'oct', k: 'AAAA' }],
    ['jku', 'https://attacker.example/jwks'],
    ['x5u', 'https://attacker.example/x5u'],
    ['zip', 'DEF'],
    ['enc', 'A128GCM'],
    ['__proto__', { alg: 'none' }],
  ),
  fc.tuple(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })),
);

/** The header text: JSON with the chosen members, or a duplicate `alg`, or not JSON at all. */
const headerText = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...HS), fc.constantFrom('', ',"typ":"JWT"', ',"kid":"k1"', ',"b64":true'))
      .map(([alg, rest]) => `{"alg":"${alg}"${rest}}`),
  },
  {
    weight: 8,
    arbitrary: fc
      .tuple(hostileAlg, fc.array(extraMember, { maxLength: 2 }))
      .map(
        ([alg, extra]) =>
          `{${[['alg', alg] as [string, unknown], ...extra]
            .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
            .join(',')}}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...HS), fc.constantFrom('none', 'HS256', 'RS256'))
      .map(([a, b]) => `{"alg":"${a}","alg":"${b}"}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"alg":"HS256"',
      '["HS256"]',
      '"HS256"',
      'null',
      '{"alg":"HS256"} ',
      ' {"alg":"HS256"}',
      '{"alg":"HS\\u0032""56"}',
      '{"alg":"HS\\u00325\\u0036"}',
    ),
  },
);

/** What the payload segment carries. */
const payloadText = fc.oneof(
  { weight: 4, arbitrary: fc.constant(JSON.stringify(claims())) },
  { weight: 1, arbitrary: fc.constant(JSON.stringify(claims({ exp: 1 }))) },
  { weight: 1, arbitrary: fc.constant(JSON.stringify(claims({ aud: 'other' }))) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('[]', 'null', '{', '{"sub":"x","sub":"y"}', '{"__proto__":{"admin":true},"sub":"x"}'),
  },
);

/** How the signature segment is made from the signing input. */
type SigMode =
  | { kind: 'match' }
  | { kind: 'mac'; hash: Hs }
  | { kind: 'empty' }
  | { kind: 'junk'; text: string }
  | { kind: 'truncated'; hash: Hs; bytes: number };
const sigMode: fc.Arbitrary<SigMode> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'match' as const }) },
  { weight: 3, arbitrary: fc.constantFrom(...HS).map((hash) => ({ kind: 'mac' as const, hash })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
  {
    weight: 1,
    arbitrary: fc.stringMatching(/^[A-Za-z0-9_\-+/=]{0,90}$/).map((text) => ({ kind: 'junk' as const, text })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...HS), fc.integer({ min: 1, max: 63 }))
      .map(([hash, bytes]) => ({ kind: 'truncated' as const, hash, bytes })),
  },
);

async function sign(secret: Uint8Array<ArrayBuffer>, hash: Hs, input: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: HASHES[hash] }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(input)));
}

async function tokenOf(
  secret: Uint8Array<ArrayBuffer>,
  header: string,
  payload: string,
  sig: SigMode,
): Promise<string> {
  const input = `${b64u(header)}.${b64u(payload)}`;
  if (sig.kind === 'empty') return `${input}.`;
  if (sig.kind === 'junk') return `${input}.${sig.text}`;
  // 'match': the hash the header's first `alg` names, when it names one exactly (else HS256).
  const named = /^\{"alg":"(HS256|HS384|HS512)"/.exec(header)?.[1] as Hs | undefined;
  const mac = await sign(secret, sig.kind === 'match' ? (named ?? 'HS256') : sig.hash, input);
  return `${input}.${b64u(sig.kind === 'truncated' ? mac.subarray(0, Math.min(sig.bytes, mac.length - 1)) : mac)}`;
}

const token = (secret: Uint8Array<ArrayBuffer>) =>
  fc.tuple(headerText, payloadText, sigMode).map(([h, p, s]) => ({ h, p, s, secret }));

describe('hmac_entry_matches_main_entry_on_hostile_headers', () => {
  // One 64-byte secret serves every HS algorithm (at least as long as each hash output).
  const secret = crypto.getRandomValues(new Uint8Array(64));

  it(
    'signed tokens with hostile headers (fast-check): same verdict and error, raw or parsed, cached or not, ' +
      'verify and verifySync',
    async () => {
      const allowed = fc.subarray(HS, { minLength: 1 });
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(
          allowed,
          token(secret),
          fc.boolean(),
          fc.boolean(),
          async (algorithms, t, rawPayload, cache) => {
            const jwt = await tokenOf(t.secret, t.h, t.p, t.s);
            const options = { algorithms, key: secret, audience: 'api', currentDate: nowDate, rawPayload, cache };
            const main = outcome(() => mainVerifier(options as never).verifySync(jwt));
            expect(
              outcome(() => hmacVerifier(options as never).verifySync(jwt)),
              jwt,
            ).toBe(main);
            // The async verify says the same from both entries (and the same as verifySync).
            const asyncOf = (v: { verify(t: string): Promise<unknown> }) =>
              v.verify(jwt).then(
                (ok) => JSON.stringify({ ok }),
                (e: unknown) =>
                  outcome(() => {
                    throw e;
                  }),
              );
            expect(await asyncOf(hmacVerifier(options as never) as never), jwt).toBe(main);
            expect(await asyncOf(mainVerifier(options as never) as never), jwt).toBe(main);
            if (main.startsWith('{"ok"')) accepted++;
          },
        ),
        { numRuns: 600 },
      );
      // The property reached the accepting path, not only refusals.
      expect(accepted).toBeGreaterThan(20);
    },
  );

  it('a sequence of hostile tokens through the same verifier pair (fast-check): every step agrees', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(HS, { minLength: 1 }),
        fc.array(token(secret), { minLength: 2, maxLength: 8 }),
        fc.boolean(),
        async (algorithms, ts, cache) => {
          const options = { algorithms, key: secret, audience: 'api', currentDate: nowDate, cache };
          const main: Verify = mainVerifier(options as never);
          const hmac: Verify = hmacVerifier(options as never);
          for (const t of ts) {
            const jwt = await tokenOf(t.secret, t.h, t.p, t.s);
            // Twice each: the second verify may be a cache hit in one entry and not the other.
            for (let i = 0; i < 2; i++)
              expect(
                outcome(() => hmac.verifySync(jwt)),
                jwt,
              ).toBe(outcome(() => main.verifySync(jwt)));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it(
    'a token MACed with the right secret under another HS ' + 'hash is refused by both entries, whatever alg it names',
    async () => {
      // alg confusion inside HMAC: HS256 named, HS512 computed (or the other way) must never verify.
      for (const named of HS) {
        for (const used of HS) {
          if (named === used) continue;
          const jwt = await tokenOf(secret, JSON.stringify({ alg: named }), JSON.stringify(claims()), {
            kind: 'mac',
            hash: used,
          });
          const options = { algorithms: HS, key: secret, audience: 'api', currentDate: nowDate };
          const main = outcome(() => mainVerifier(options as never).verifySync(jwt));
          expect(main).toContain('ERR_JWS_SIGNATURE_INVALID');
          expect(outcome(() => hmacVerifier(options as never).verifySync(jwt))).toBe(main);
        }
      }
    },
  );

  it(
    "the guard's HS-only path (two-step verifier over hmacPolicy) matches the key-set path (buildPolicy), open " +
      'and verifyOpened, for two issuers (fast-check)',
    async () => {
      // lean-core 4edc8a2: a config whose issuers all use secretBinding verifies on hmacPolicy.
      const other = crypto.getRandomValues(new Uint8Array(64));
      const issuers = [
        { issuer: 'https://issuer.example', audience: 'api', algorithms: ['HS256', 'HS512'], key: secret },
        { issuer: 'https://other.example', audience: 'api', algorithms: ['HS384'], key: other },
      ];
      const options = { issuers, cache: false as const, currentDate: nowDate };
      const full = buildTwoStepVerifier(options as never, buildPolicy);
      const lean = buildTwoStepVerifier(options as never, hmacPolicy);
      const twoStep = (v: typeof full, jwt: string): string =>
        outcome(() => {
          const opened = v.open(jwt);
          return { alg: opened.alg, kid: opened.kid, iss: opened.iss, result: v.verifyOpened(opened) };
        });
      // Mostly an issuer with its own secret (so tokens get through), sometimes another's secret or issuer.
      const pair = fc.oneof(
        { weight: 4, arbitrary: fc.constant(['https://issuer.example', secret] as const) },
        { weight: 1, arbitrary: fc.constant(['https://other.example', other] as const) },
        {
          weight: 2,
          arbitrary: fc.tuple(
            fc.constantFrom(
              'https://issuer.example',
              'https://other.example',
              'https://nobody.example',
              'HTTPS://ISSUER.EXAMPLE',
            ),
            fc.constantFrom(secret, other),
          ),
        },
      );
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(token(secret), pair, async (t, [issuer, key]) => {
          const payload = t.p.startsWith('{"iss"')
            ? JSON.stringify({ ...(JSON.parse(t.p) as object), iss: issuer })
            : t.p;
          const jwt = await tokenOf(key, t.h, payload, t.s);
          const want = twoStep(full, jwt);
          expect(twoStep(lean, jwt), jwt).toBe(want);
          if (want.startsWith('{"ok"')) accepted++;
        }),
        { numRuns: 500 },
      );
      // About 30 of 500 get through: the property reached the accepting path too.
      expect(accepted).toBeGreaterThan(8);
    },
  );
});
