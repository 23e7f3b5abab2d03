// Each issuer's keys are built at the first verify that selects them: createVerifier
// checks shapes, lengths and algorithm fit; the costly checks (EC point on its curve,
// RSA parameters) and the imports (Wasm, backend) wait, a failure then is remembered,
// and Verifier.prepare builds (and reports) everything at once.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createVerifier, type JWK } from '../../src/index.js';
import { importEd25519Key } from '../../src/wasm/ed25519-key.js';
import { getCore } from '../../src/wasm/instance.js';
import {
  b64u,
  claims,
  codeOf,
  codeOfSync,
  generate,
  mint,
  nowDate,
  prepareCodes,
  unb64u,
  type KeyPair,
} from './jwt-mint.js';

/** An Ed25519 x that is no point (y = p, non-canonical): refused by the core's import. */
function notAPoint(): string {
  const bad = new Uint8Array(32).fill(0xff);
  bad[0] = 0xed;
  bad[31] = 0x7f;
  return b64u(bad);
}

/** The same P-256 key with y changed in its last bit: off the curve. */
function offCurve(jwk: JWK): JWK {
  const y = unb64u(jwk.y!);
  y[y.length - 1]! ^= 1;
  return { ...jwk, y: b64u(y) };
}

const iss = (name: string): string => `https://${name}.example`;

interface Fixture {
  hs: KeyPair;
  ed: KeyPair;
  es: KeyPair;
  rs: KeyPair;
}

async function fixture(): Promise<Fixture> {
  return {
    hs: await generate('HS256'),
    ed: await generate('EdDSA'),
    es: await generate('ES256'),
    rs: await generate('RS256'),
  };
}

/** Four good issuers and three broken ones (each broken only in what createVerifier no longer checks). */
function issuers(f: Fixture) {
  return [
    { issuer: iss('hs'), algorithms: ['HS256' as const], key: f.hs.secret! },
    { issuer: iss('ed'), algorithms: ['EdDSA' as const], key: f.ed.publicJwk as JWK },
    {
      issuer: iss('es'),
      algorithms: ['ES256' as const],
      jwks: { keys: [{ ...(f.es.publicJwk as JWK), kid: 'es-1' }] },
    },
    { issuer: iss('rs'), algorithms: ['RS256' as const], key: f.rs.publicJwk as JWK },
    {
      issuer: iss('ed-broken'),
      algorithms: ['EdDSA' as const],
      key: { kty: 'OKP', crv: 'Ed25519', x: notAPoint() } as JWK,
    },
    { issuer: iss('es-broken'), algorithms: ['ES256' as const], key: offCurve(f.es.publicJwk as JWK) },
    {
      issuer: iss('rs-broken'),
      algorithms: ['RS256' as const],
      key: { kty: 'RSA', n: f.rs.publicJwk.n!, e: 'AQ' } as JWK,
    },
  ];
}

describe('issuer_keys_built_on_first_use', () => {
  it('an HS256 verify on a multi-issuer verifier imports no Ed25519 key; the first EdDSA verify does', async () => {
    const f = await fixture();
    const hsToken = await mint(f.hs, claims({ iss: iss('hs') }));
    const edToken = await mint(f.ed, claims({ iss: iss('ed') }));
    const edAgain = await mint(f.ed, claims({ iss: iss('ed'), sub: 'again' }));
    // From here on nothing awaits: a finalizer giving back the slot of an earlier test's dead
    // key runs only between tasks, so the free count moves only by what these calls do.
    const free = (): number => getCore().freeEd25519.length;
    // In one process with other test files (the bundled corpus) every slot may be held by keys awaiting
    // the garbage collector; a key imported and dropped here leaves one free whatever ran before.
    importEd25519Key(unb64u(f.ed.publicJwk.x!)).drop();
    const before = free();
    expect(before).toBeGreaterThan(0);
    // Broken keys among them: construction does not run the checks that would find them.
    const v = createVerifier({ issuers: issuers(f), audience: 'api', currentDate: nowDate, cache: false });
    expect(free()).toBe(before);
    expect(v.verifySync(hsToken).payload.iss).toBe(iss('hs'));
    expect(free()).toBe(before);
    expect(v.verifySync(edToken).payload.iss).toBe(iss('ed'));
    expect(free()).toBe(before - 1);
    // Built once: a second EdDSA verify takes no other slot.
    v.verifySync(edAgain);
    expect(free()).toBe(before - 1);
  });

  it('a shape, length or algorithm mistake still throws at createVerifier', async () => {
    const f = await fixture();
    const base = issuers(f).slice(0, 4);
    const withEntry = (entry: object) => () => createVerifier({ issuers: [...base, entry as never], audience: 'api' });
    expect(codeOfSync(withEntry({ issuer: iss('x'), algorithms: ['HS256'], key: new Uint8Array(31) }))).toBe(
      'ERR_KEY_TOO_SHORT',
    );
    expect(
      codeOfSync(
        withEntry({
          issuer: iss('x'),
          algorithms: ['EdDSA'],
          key: { kty: 'OKP', crv: 'Ed25519', x: b64u(new Uint8Array(31)) },
        }),
      ),
    ).toBe('ERR_KEY_INVALID');
    expect(
      codeOfSync(
        withEntry({ issuer: iss('x'), algorithms: ['ES256'], key: { ...(f.es.publicJwk as JWK), x: 'AAAA' } }),
      ),
    ).toBe('ERR_KEY_INVALID');
    expect(codeOfSync(withEntry({ issuer: iss('x'), algorithms: ['ES256'], key: f.rs.publicJwk }))).toBe(
      'ERR_KEY_ALG_MISMATCH',
    );
    expect(
      codeOfSync(
        withEntry({ issuer: iss('x'), algorithms: ['RS256'], key: { ...(f.rs.publicJwk as JWK), use: 'enc' } }),
      ),
    ).toBe('ERR_KEY_INVALID');
    expect(
      codeOfSync(
        withEntry({
          issuer: iss('x'),
          algorithms: ['RS256'],
          key: { kty: 'RSA', n: b64u(new Uint8Array(128).fill(1)), e: 'AQAB' },
        }),
      ),
    ).toBe('ERR_KEY_TOO_SHORT');
  });
});

describe('broken_key_fails_same_on_every_verify', () => {
  for (const [name, alg, sigBytes] of [
    ['ed-broken', 'EdDSA', 64],
    ['es-broken', 'ES256', 64],
    ['rs-broken', 'RS256', 256],
  ] as const) {
    it(
      `${name}: the same JwtError (ERR_KEY_INVALID) at every verify, sync and async, without key bytes; other ` +
        `issuers unaffected`,
      async () => {
        const f = await fixture();
        const v = createVerifier({ issuers: issuers(f), audience: 'api', currentDate: nowDate, cache: false });
        const token =
          `${b64u(JSON.stringify({ alg }))}.${b64u(JSON.stringify(claims({ iss: iss(name) })))}.` +
          `${b64u(new Uint8Array(sigBytes))}`;
        const errors: unknown[] = [];
        for (let i = 0; i < 3; i++) {
          try {
            await v.verify(token);
          } catch (e) {
            errors.push(e);
          }
          // Sync too, in every runtime: the failure is known before any import would wait.
          try {
            v.verifySync(token);
          } catch (e) {
            errors.push(e);
          }
        }
        expect(errors.length).toBe(6);
        // Remembered: the very same error each time (the check or import ran once).
        for (const e of errors) expect(e).toBe(errors[0]);
        expect((errors[0] as { code: string }).code).toBe('ERR_KEY_INVALID');
        const message = (errors[0] as Error).message;
        const material = issuers(f).find((x) => x.issuer === iss(name))!.key as JWK;
        for (const part of [material.x, material.y, material.n].filter((p): p is string => p !== undefined))
          expect(message).not.toContain(part.slice(0, 12));
        // The good issuers verify as before.
        expect(await codeOf(async () => v.verify(await mint(f.hs, claims({ iss: iss('hs') }))))).toBe('OK');
        expect(await codeOf(async () => v.verify(await mint(f.es, claims({ iss: iss('es') }), { kid: 'es-1' })))).toBe(
          'OK',
        );
      },
    );
  }
});

describe('prepare_reports_every_key_error', () => {
  it('one AggregateError listing every key that cannot be built, in order; a good verifier resolves', async () => {
    const f = await fixture();
    const all = issuers(f);
    const v = createVerifier({ issuers: all, audience: 'api', currentDate: nowDate });
    let caught: unknown;
    await v.prepare().catch((e: unknown) => {
      caught = e;
    });
    expect(caught).toBeInstanceOf(AggregateError);
    const errors = (caught as AggregateError).errors as { code: string; message: string }[];
    expect(errors.map((e) => e.code)).toEqual(['ERR_KEY_INVALID', 'ERR_KEY_INVALID', 'ERR_KEY_INVALID']);
    // No key bytes in any message.
    const text = [(caught as Error).message, ...errors.map((e) => e.message)].join('\n');
    for (const entry of all.slice(4)) {
      const k = entry.key as JWK;
      for (const part of [k.x, k.y, k.n].filter((p): p is string => p !== undefined))
        expect(text).not.toContain(part.slice(0, 12));
    }
    // After prepare, verifies answer as they would have: the errors are the ones prepare reported.
    const token =
      `${b64u('{"alg":"EdDSA"}')}.${b64u(JSON.stringify(claims({ iss: iss('ed-broken') })))}.` +
      `${b64u(new Uint8Array(64))}`;
    let atVerify: unknown;
    await v.verify(token).catch((e: unknown) => {
      atVerify = e;
    });
    expect(atVerify).toBe(errors[0]);

    const good = createVerifier({ issuers: all.slice(0, 4), audience: 'api', currentDate: nowDate });
    expect(await prepareCodes(good)).toEqual([]);
    // Prepared: an Ed25519 key imported by prepare serves verifySync at once.
    expect(good.verifySync(await mint(f.ed, claims({ iss: iss('ed') }))).payload.sub).toBe('user-1');
  });

  it(
    'a key set: the keys a verify would pass over are reported; a single key that fits one allowed algorithm is ' +
      'not',
    async () => {
      const f = await fixture();
      const es = f.es.publicJwk as JWK;
      const set = createVerifier({
        algorithms: ['ES256'],
        jwks: {
          keys: [
            { ...es, kid: 'on' },
            { ...offCurve(es), kid: 'off' },
          ],
        },
      });
      expect(await prepareCodes(set)).toEqual(['ERR_KEY_INVALID']);
      // HS512 would need 64 bytes: the 32-byte secret still serves HS256, as at construction.
      const hs = createVerifier({ algorithms: ['HS256', 'HS512'], key: f.hs.secret! });
      expect(await prepareCodes(hs)).toEqual([]);
    },
  );
});

describe('lazy_and_prepared_verifiers_agree', () => {
  it('the same result or error code for random multi-issuer token mixes', async () => {
    const f = await fixture();
    const pairs = { hs: f.hs, ed: f.ed, es: f.es, rs: f.rs } as const;
    const names = ['hs', 'ed', 'es', 'rs', 'ed-broken', 'es-broken', 'rs-broken', 'nobody'] as const;
    const algOf = { hs: 'HS256', ed: 'EdDSA', es: 'ES256', rs: 'RS256' } as const;
    // A token: an issuer name, the key kind that signs it, and a kid or none.
    const tokenArb = fc.record({
      name: fc.constantFrom(...names),
      signer: fc.constantFrom('hs', 'ed', 'es', 'rs'),
      kid: fc.constantFrom(undefined, 'es-1', 'other'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(tokenArb, { minLength: 1, maxLength: 8 }), async (mix) => {
        const options = { issuers: issuers(f), audience: 'api', currentDate: nowDate, cache: false as const };
        const lazy = createVerifier(options);
        const eager = createVerifier(options);
        await eager.prepare().catch(() => undefined);
        for (const t of mix) {
          const pair = pairs[t.signer as keyof typeof pairs];
          const token = await mint(
            { alg: algOf[t.signer as keyof typeof algOf], privateKey: pair.privateKey },
            claims({ iss: iss(t.name) }),
            t.kid === undefined ? {} : { kid: t.kid },
          );
          const [a, b] = [await codeOf(() => lazy.verify(token)), await codeOf(() => eager.verify(token))];
          expect(a, `${t.name} ${t.signer} ${t.kid}`).toBe(b);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('local_set_is_a_snapshot_when_made', () => {
  it(
    'a key set read at its first use reads the keys as they were when it was made, not as the caller changed ' +
      'them since',
    async () => {
      const f = await fixture();
      const other = await generate('EdDSA');
      const jwk = { ...(f.ed.publicJwk as JWK), kid: 'ed-1', key_ops: ['verify'] };
      const given = { keys: [jwk] };
      const v = createVerifier({ algorithms: ['EdDSA'], jwks: given, currentDate: nowDate });
      // Changed after createVerifier, before any token: none of it may count.
      jwk.x = (other.publicJwk as JWK).x!;
      jwk.key_ops.push('sign');
      given.keys.push({ ...(other.publicJwk as JWK), kid: 'ed-2', key_ops: ['verify'] });
      expect(await codeOf(async () => v.verify(await mint(f.ed, claims(), { kid: 'ed-1' })))).toBe('OK');
      expect(await codeOf(async () => v.verify(await mint(other, claims(), { kid: 'ed-1' })))).toBe(
        'ERR_JWS_SIGNATURE_INVALID',
      );
      expect(await codeOf(async () => v.verify(await mint(other, claims(), { kid: 'ed-2' })))).toBe(
        'ERR_JWKS_NO_MATCHING_KEY',
      );
    },
  );

  it(
    'the set shape is still checked at createVerifier; a key that cannot be read is left out at its first use, ' +
      'as before',
    () => {
      expect(codeOfSync(() => createVerifier({ algorithms: ['EdDSA'], jwks: { keys: 'nope' } as never }))).toBe(
        'ERR_JWKS_INVALID',
      );
      expect(codeOfSync(() => createVerifier({ algorithms: ['EdDSA'], jwks: { keys: [1] } as never }))).toBe(
        'ERR_JWKS_INVALID',
      );
      expect(
        codeOfSync(() =>
          createVerifier({
            algorithms: ['EdDSA'],
            jwks: { keys: Array.from({ length: 101 }, () => ({ kty: 'OKP' })) } as never,
          }),
        ),
      ).toBe('ERR_JWKS_INVALID');
      const odd = createVerifier({
        algorithms: ['EdDSA'],
        jwks: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 10n } as never] },
        currentDate: nowDate,
      });
      const token = `${b64u('{"alg":"EdDSA"}')}.${b64u(JSON.stringify(claims()))}.${b64u(new Uint8Array(64))}`;
      expect(codeOfSync(() => odd.verifySync(token))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    },
  );
});
