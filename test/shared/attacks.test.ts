// The attack catalogue: each attack a named test with the error code it must get.
import { describe, expect, it } from 'vitest';
import { createSigner, createVerifier, type JWK } from '../../src/index.js';
import {
  b64u,
  claims,
  codeOf,
  codeOfSync,
  generate,
  prepareCodes,
  mint,
  nowDate,
  signInput,
  unb64u,
} from './jwt-mint.js';

const enc = new TextEncoder();

async function hmacToken(
  secret: Uint8Array,
  header: Record<string, unknown>,
  payload: Record<string, unknown> | string,
  alg = 'HS256',
): Promise<string> {
  const hash = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' }[alg]!;
  const key = await crypto.subtle.importKey('raw', secret as BufferSource, { name: 'HMAC', hash }, false, ['sign']);
  const h = b64u(JSON.stringify({ alg, ...header }));
  const p = b64u(typeof payload === 'string' ? payload : JSON.stringify(payload));
  return signInput('HS256', key, `${h}.${p}`);
}

/** Sign an already-encoded header text (to control its exact bytes). */
async function hmacRawHeader(
  secret: Uint8Array,
  headerText: string,
  payload: Record<string, unknown>,
): Promise<string> {
  const key = await crypto.subtle.importKey('raw', secret as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return signInput('HS256', key, `${b64u(headerText)}.${b64u(JSON.stringify(payload))}`);
}

const secret = new Uint8Array(32).fill(7);
const hs = (extra: Record<string, unknown> = {}) =>
  createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, cache: false, ...extra });

function swapSegment(token: string, index: number, value: string): string {
  const parts = token.split('.');
  parts[index] = value;
  return parts.join('.');
}

/** DER form of a raw r||s ECDSA signature (what JWS must never accept). */
function toDer(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2;
  const int = (b: Uint8Array): number[] => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    const v = [...b.subarray(i)];
    if (v[0]! & 0x80) v.unshift(0);
    return [0x02, v.length, ...v];
  };
  const body = [...int(raw.subarray(0, half)), ...int(raw.subarray(half))];
  return new Uint8Array([0x30, body.length, ...body]);
}

describe('alg none', () => {
  for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
    it(`"${alg}" with an empty signature is malformed; with any signature, not allowed`, async () => {
      const unsigned = `${b64u(JSON.stringify({ alg }))}.${b64u(JSON.stringify(claims()))}`;
      expect(codeOfSync(() => hs().verifySync(`${unsigned}.`))).toBe('ERR_JWT_MALFORMED');
      expect(codeOfSync(() => hs().verifySync(`${unsigned}.AAAA`))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
    });
  }
  it('"none" cannot be put in the allow-list', () => {
    // @ts-expect-error 'none' is not an Algorithm: this is the JavaScript caller's view
    expect(codeOfSync(() => createVerifier({ algorithms: ['none'], key: secret }))).toBe('ERR_OPTIONS_INVALID');
  });
});

describe('key confusion', () => {
  for (const alg of ['RS256', 'ES256'] as const) {
    it(`${alg}→HS256 with the public key bytes as the HMAC secret`, async () => {
      const pair = await generate(alg);
      const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
      const jwkBytes = enc.encode(JSON.stringify(pair.publicJwk));
      for (const fakeSecret of [spki, jwkBytes]) {
        const forged = await hmacToken(fakeSecret, {}, claims());
        // Not in the allow-list:
        const strict = createVerifier({ algorithms: [alg], key: pair.publicJwk as JWK, currentDate: nowDate });
        expect(await codeOf(() => strict.verify(forged))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
        // In the allow-list, but an asymmetric key never acts as an HMAC secret:
        const lax = createVerifier({ algorithms: [alg, 'HS256'], key: pair.publicJwk as JWK, currentDate: nowDate });
        expect(await codeOf(() => lax.verify(forged))).toBe('ERR_KEY_ALG_MISMATCH');
        const set = createVerifier({
          algorithms: [alg, 'HS256'],
          jwks: { keys: [pair.publicJwk as JWK] },
          currentDate: nowDate,
        });
        expect(await codeOf(() => set.verify(forged))).toBe('ERR_JWKS_NO_MATCHING_KEY');
      }
    });
  }

  it('JWK with alg RS256 refuses a PS256 token signed by the same key pair', async () => {
    const pair = await generate('PS256');
    const token = await mint(pair, claims());
    const key = { ...pair.publicJwk, alg: 'RS256' } as JWK;
    const v = createVerifier({ algorithms: ['RS256', 'PS256'], key, currentDate: nowDate });
    expect(await codeOf(() => v.verify(token))).toBe('ERR_KEY_ALG_MISMATCH');
    const ok = createVerifier({ algorithms: ['RS256', 'PS256'], key: pair.publicJwk as JWK, currentDate: nowDate });
    expect(await codeOf(() => ok.verify(token))).toBe('OK');
  });

  it('a JWK for encryption (use: enc, key_ops without verify) never verifies', async () => {
    const pair = await generate('RS256');
    expect(
      await codeOf(() => createVerifier({ algorithms: ['RS256'], key: { ...pair.publicJwk, use: 'enc' } as JWK })),
    ).toBe('ERR_KEY_INVALID');
    expect(
      await codeOf(() =>
        createVerifier({ algorithms: ['RS256'], key: { ...pair.publicJwk, key_ops: ['encrypt'] } as JWK }),
      ),
    ).toBe('ERR_KEY_INVALID');
    const token = await mint(pair, claims());
    const set = createVerifier({
      algorithms: ['RS256'],
      jwks: { keys: [{ ...pair.publicJwk, use: 'enc' } as JWK] },
      currentDate: nowDate,
    });
    expect(await codeOf(() => set.verify(token))).toBe('ERR_JWKS_NO_MATCHING_KEY');
  });
});

describe('embedded keys are never used', () => {
  for (const member of ['jwk', 'jku', 'x5u', 'x5c']) {
    it(`header ${member} pointing at the attacker's key`, async () => {
      const real = await generate('ES256');
      const attacker = await generate('ES256');
      const value =
        member === 'jwk' ? attacker.publicJwk : member === 'x5c' ? ['MIIBattacker'] : 'https://attacker.example/keys';
      const forged = await mint(attacker, claims(), { kid: 'k1', [member]: value });
      const v = createVerifier({ algorithms: ['ES256'], key: real.publicJwk as JWK, currentDate: nowDate });
      expect(await codeOf(() => v.verify(forged))).toBe('ERR_JWS_SIGNATURE_INVALID');
      const set = createVerifier({
        algorithms: ['ES256'],
        jwks: { keys: [{ ...(real.publicJwk as JWK), kid: 'real' }] },
        currentDate: nowDate,
      });
      expect(await codeOf(() => set.verify(forged))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    });
  }
});

describe('crit and b64', () => {
  it('unknown crit extension', async () => {
    const t = await hmacToken(secret, { crit: ['exp'], exp: 1 }, claims());
    expect(codeOfSync(() => hs().verifySync(t))).toBe('ERR_JWS_CRIT_UNSUPPORTED');
  });
  for (const [name, crit] of [
    ['empty array', []],
    ['not an array', 'exp'],
    ['non-string entry', [1]],
    ['lists an absent name', ['nope']],
  ] as const) {
    it(`malformed crit: ${name}`, async () => {
      const t = await hmacToken(secret, { crit }, claims());
      expect(codeOfSync(() => hs().verifySync(t))).toBe('ERR_JWS_HEADER_INVALID');
    });
  }
  it('b64:false with crit is an unsupported extension', async () => {
    const t = await hmacToken(secret, { b64: false, crit: ['b64'] }, claims());
    expect(codeOfSync(() => hs().verifySync(t))).toBe('ERR_JWS_CRIT_UNSUPPORTED');
  });
  it('b64:false without crit is still refused', async () => {
    const t = await hmacToken(secret, { b64: false }, claims());
    expect(codeOfSync(() => hs().verifySync(t))).toBe('ERR_JWS_HEADER_INVALID');
  });
});

describe('ECDSA signature encodings', () => {
  it('DER-encoded ECDSA signature', async () => {
    const pair = await generate('ES256');
    const token = await mint(pair, claims());
    const der = toDer(unb64u(token.split('.')[2]!));
    const v = createVerifier({ algorithms: ['ES256'], key: pair.publicJwk as JWK, currentDate: nowDate });
    expect(await codeOf(() => v.verify(swapSegment(token, 2, b64u(der))))).toBe('ERR_JWS_SIGNATURE_INVALID');
  });
  const n = 'ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551';
  const hexBytes = (h: string) => new Uint8Array(h.match(/../g)!.map((x) => parseInt(x, 16)));
  const zero = '00'.repeat(32);
  const one = '00'.repeat(31) + '01';
  const nMinus1 = n.slice(0, -1) + '0';
  for (const [name, r, s] of [
    ['r=s=0 (CVE-2022-21449)', zero, zero],
    ['r=0, s=1', zero, one],
    ['r=1, s=0', one, zero],
    ['r=s=n', n, n],
    ['r=n, s=1', n, one],
    ['r=1, s=n', one, n],
    ['r=n-1, s=n-1', nMinus1, nMinus1],
  ] as const) {
    it(`P-256 ${name}`, async () => {
      const pair = await generate('ES256');
      const token = await mint(pair, claims());
      const v = createVerifier({ algorithms: ['ES256'], key: pair.publicJwk as JWK, currentDate: nowDate });
      const sig = new Uint8Array([...hexBytes(r), ...hexBytes(s)]);
      expect(await codeOf(() => v.verify(swapSegment(token, 2, b64u(sig))))).toBe('ERR_JWS_SIGNATURE_INVALID');
    });
  }
});

describe('weak keys', () => {
  it('HMAC secret shorter than the hash (RFC 7518 §3.2)', async () => {
    expect(codeOfSync(() => createVerifier({ algorithms: ['HS256'], key: new Uint8Array(31) }))).toBe(
      'ERR_KEY_TOO_SHORT',
    );
    expect(codeOfSync(() => createVerifier({ algorithms: ['HS512'], key: new Uint8Array(63) }))).toBe(
      'ERR_KEY_TOO_SHORT',
    );
    expect(
      codeOfSync(() => createVerifier({ algorithms: ['HS256'], key: { kty: 'oct', k: b64u(new Uint8Array(16)) } })),
    ).toBe('ERR_KEY_TOO_SHORT');
  });
  it('RSA-1024', async () => {
    const pair = await generate('RS256', { modulusLength: 1024 });
    expect(codeOfSync(() => createVerifier({ algorithms: ['RS256'], key: pair.publicJwk as JWK }))).toBe(
      'ERR_KEY_TOO_SHORT',
    );
    expect(codeOfSync(() => createVerifier({ algorithms: ['RS256'], key: pair.publicKey }))).toBe('ERR_KEY_TOO_SHORT');
    const token = await mint(pair, claims());
    const set = createVerifier({
      algorithms: ['RS256'],
      jwks: { keys: [pair.publicJwk as JWK] },
      currentDate: nowDate,
    });
    expect(await codeOf(() => set.verify(token))).toBe('ERR_KEY_TOO_SHORT');
  });
  it('Ed25519 public key that is not a valid point', async () => {
    // y = p (non-canonical) is refused by the strict import: at the first verify that
    // selects the key (createVerifier leaves the Wasm import to it), or by prepare.
    const bad = new Uint8Array(32).fill(0xff);
    bad[0] = 0xed;
    bad[31] = 0x7f;
    const v = createVerifier({ algorithms: ['EdDSA'], key: { kty: 'OKP', crv: 'Ed25519', x: b64u(bad) } });
    const token = `${b64u('{"alg":"EdDSA"}')}.${b64u(JSON.stringify(claims()))}.${b64u(new Uint8Array(64))}`;
    expect(codeOfSync(() => v.verifySync(token))).toBe('ERR_KEY_INVALID');
    expect(await prepareCodes(v)).toEqual(['ERR_KEY_INVALID']);
  });
});

describe('header shape', () => {
  it('duplicate header members', async () => {
    const t = await hmacRawHeader(secret, '{"alg":"HS256","alg":"HS256"}', claims());
    expect(codeOfSync(() => hs().verifySync(t))).toBe('ERR_JWS_HEADER_INVALID');
  });
  it('duplicate header members hidden by an escape', async () => {
    const t = await hmacRawHeader(secret, '{"alg":"HS256","\\u0061lg":"HS256"}', claims());
    expect(codeOfSync(() => hs().verifySync(t))).toBe('ERR_JWS_HEADER_INVALID');
  });
  it('nested member with the same name is not a duplicate', async () => {
    const t = await hmacRawHeader(secret, '{"alg":"HS256","x":{"alg":1}}', claims());
    expect(codeOfSync(() => hs().verifySync(t))).toBe('OK');
  });
  it('empty_typ_refused: typ "" names no media type (RFC 7515 §4.1.9); the signer will not write one', async () => {
    const tokens = {
      '': await hmacToken(secret, { typ: '' }, claims()),
      JWT: await hmacToken(secret, { typ: 'JWT' }, claims()),
    };
    const t = (typ: keyof typeof tokens) => tokens[typ];
    expect(codeOfSync(() => hs().verifySync(t('')))).toBe('ERR_JWS_HEADER_INVALID');
    expect(codeOfSync(() => hs().verifySync(t('JWT')))).toBe('OK');
    expect(codeOfSync(() => createSigner({ alg: 'HS256', key: secret, header: { typ: '' } }).signSync(claims()))).toBe(
      'ERR_OPTIONS_INVALID',
    );
  });
  it('kid of 10 KB', async () => {
    const t = await hmacToken(secret, { kid: 'k'.repeat(10_240) }, claims());
    expect(codeOfSync(() => hs().verifySync(t))).toBe('ERR_JWS_HEADER_INVALID');
  });
  it('deeply nested header', async () => {
    const t = await hmacRawHeader(secret, `{"alg":"HS256","x":${'['.repeat(500)}${']'.repeat(500)}}`, claims());
    expect(codeOfSync(() => hs().verifySync(t))).toBe('ERR_JWS_HEADER_INVALID');
  });
  it('header that is not a JSON object', async () => {
    for (const text of ['[]', '"alg"', 'null', '{"alg":"HS256"', '{"alg":HS256}']) {
      const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const t = await signInput('HS256', key, `${b64u(text)}.${b64u(JSON.stringify(claims()))}`);
      expect(
        codeOfSync(() => hs().verifySync(t)),
        text,
      ).toBe('ERR_JWS_HEADER_INVALID');
    }
  });
});

describe('token shape', () => {
  it('2, 4 and 5 segments', async () => {
    const t = await hmacToken(secret, {}, claims());
    const [h, p, s] = t.split('.');
    for (const bad of [
      `${h}.${p}`,
      `${h}.${p}.${s}.${s}`,
      `${h}.${p}.${s}.${s}.${s}`,
      `${h}.${p}.${s}.`,
      `.${p}.${s}`,
    ]) {
      expect(codeOfSync(() => hs().verifySync(bad))).toBe('ERR_JWT_MALFORMED');
    }
  });
  it('non-canonical base64url: padding, +, /, whitespace, non-zero trailing bits', async () => {
    const t = await hmacToken(secret, {}, claims({ pad: 'x' }));
    const [h, p, s] = t.split('.') as [string, string, string];
    expect(codeOfSync(() => hs().verifySync(t))).toBe('OK');
    const lastBitsFlip = (seg: string) => {
      // Bump the last character within its group so only the unused low bits change.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const i = alphabet.indexOf(seg[seg.length - 1]!);
      return seg.slice(0, -1) + alphabet[i + 1];
    };
    const cases: [string, string][] = [
      ['padded header', `${h}==.${p}.${s}`],
      ['padded payload', `${h}.${p}=.${s}`],
      ['padded signature', `${h}.${p}.${s}=`],
      ['+ in signature', `${h}.${p}.${s.replace(/[-_]/, '+').replace(/^./, '+')}`],
      ['/ in payload', `${h}.${p.slice(0, 5)}/${p.slice(6)}.${s}`],
      ['space in header', `${h.slice(0, 4)} ${h.slice(4)}.${p}.${s}`],
      ['newline in signature', `${h}.${p}.${s.slice(0, 10)}\n${s.slice(10)}`],
      ['non-ASCII character', `${h}.${p.slice(0, 3)}é${p.slice(4)}.${s}`],
      ['non-zero trailing bits in signature', `${h}.${p}.${lastBitsFlip(s)}`],
    ];
    if (p.length % 4 !== 0) cases.push(['non-zero trailing bits in payload', `${h}.${lastBitsFlip(p)}.${s}`]);
    for (const [name, bad] of cases)
      expect(
        codeOfSync(() => hs().verifySync(bad)),
        name,
      ).toBe('ERR_JWT_MALFORMED');
  });
  it('non-canonical base64url in a long (RSA) signature, which takes the native decoder', async () => {
    const pair = await generate('RS256');
    const t = await mint(pair, claims());
    const v = createVerifier({ algorithms: ['RS256'], key: pair.publicJwk as JWK, currentDate: nowDate });
    expect(await codeOf(() => v.verify(t))).toBe('OK');
    const [h, p, s] = t.split('.') as [string, string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(s[s.length - 1]!);
    const cases: [string, string][] = [
      ['padding', `${s}==`],
      ['+', `+${s.slice(1)}`],
      ['/', `${s.slice(0, 9)}/${s.slice(10)}`],
      ['space', `${s.slice(0, 9)} ${s.slice(9)}`],
      ['tab', `${s.slice(0, 9)}\t${s.slice(10)}`],
      ['non-ASCII aliasing an ASCII letter', `${s.slice(0, 9)}\u0144${s.slice(10)}`],
      ['a dot-free stray character', `${s.slice(0, 9)}!${s.slice(10)}`],
      ['non-zero trailing bits', `${s.slice(0, -1)}${alphabet[last + 1]}`],
      ['one character short', s.slice(1)],
    ];
    for (const [name, sig] of cases)
      expect(await codeOf(() => v.verify(`${h}.${p}.${sig}`)), name).toMatch(
        /^ERR_JWT_MALFORMED$|^ERR_JWS_SIGNATURE_INVALID$/,
      );
    // Those that keep the decoded bytes identical must be malformed, never accepted.
    for (const name of ['padding', 'space', 'non-ASCII aliasing an ASCII letter', 'non-zero trailing bits']) {
      const sig = cases.find((c) => c[0] === name)![1];
      expect(await codeOf(() => v.verify(`${h}.${p}.${sig}`)), name).toBe('ERR_JWT_MALFORMED');
    }
  });
  it('oversized tokens', async () => {
    const big = await hmacToken(secret, {}, claims({ blob: 'x'.repeat(20_000) }));
    expect(codeOfSync(() => hs().verifySync(big))).toBe('ERR_JWT_TOO_LARGE');
    expect(codeOfSync(() => hs().verifySync('a'.repeat(1 << 20)))).toBe('ERR_JWT_TOO_LARGE');
    expect(codeOfSync(() => hs({ maxTokenLength: 65_536 }).verifySync(big))).toBe('OK');
  });
  it('a truncated HMAC tag', async () => {
    const t = await hmacToken(secret, {}, claims());
    const sig = unb64u(t.split('.')[2]!);
    expect(codeOfSync(() => hs().verifySync(swapSegment(t, 2, b64u(sig.subarray(0, 16)))))).toBe(
      'ERR_JWS_SIGNATURE_INVALID',
    );
  });
  it('non-string tokens', () => {
    for (const bad of [undefined, null, 42, {}, ['a.b.c']]) {
      expect(codeOfSync(() => hs().verifySync(bad as unknown as string))).toBe('ERR_JWT_MALFORMED');
    }
  });
});

describe('payload and claims', () => {
  it('deeply nested payload: parsed only after the signature, never crashes', async () => {
    const deep = `{"exp":${nowDate.getTime() / 1000 + 60},"a":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const t = await signInput('HS256', key, `${b64u('{"alg":"HS256"}')}.${b64u(deep)}`);
    // Unsigned (tampered) copies never reach the JSON parser.
    expect(codeOfSync(() => hs().verifySync(t.slice(0, -3) + 'AAA'))).toBe('ERR_JWS_SIGNATURE_INVALID');
    // Signed: bounded by maxTokenLength, parsed without a stack overflow.
    const code = codeOfSync(() => hs().verifySync(t));
    expect(['OK', 'ERR_JWT_PAYLOAD_INVALID']).toContain(code);
  });
  it('payload that is not a JSON object', async () => {
    for (const text of ['[1]', '"x"', '42', 'null', 'not json', '']) {
      const t = await hmacToken(secret, {}, text);
      expect(
        codeOfSync(() => hs().verifySync(t)),
        text,
      ).toBe('ERR_JWT_PAYLOAD_INVALID');
    }
  });
  it('payload that is not valid UTF-8 (lone byte, overlong form, surrogate)', async () => {
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const head = enc.encode('{"exp":4000000000,"n":"');
    for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const bytes = new Uint8Array([...head, ...bad, ...enc.encode('"}')]);
      const t = await signInput('HS256', key, `${b64u('{"alg":"HS256"}')}.${b64u(bytes)}`);
      expect(
        codeOfSync(() => hs().verifySync(t)),
        String(bad),
      ).toBe('ERR_JWT_PAYLOAD_INVALID');
    }
    const ok = await hmacToken(secret, {}, claims({ name: 'Zoë ☃ 𝄞' }));
    expect(hs().verifySync(ok).payload.name).toBe('Zoë ☃ 𝄞');
    // A genuine U+FFFD (EF BF BD) is valid UTF-8 and must survive; a long payload takes the TextDecoder path.
    const replacement = await hmacToken(secret, {}, claims({ name: 'a\uFFFDb', pad: 'x'.repeat(100) }));
    expect(hs().verifySync(replacement).payload.name).toBe('a\uFFFDb');
    const longBad = new Uint8Array([
      ...enc.encode('{"exp":4000000000,"pad":"' + 'x'.repeat(100) + '","n":"'),
      0xff,
      ...enc.encode('"}'),
    ]);
    const key2 = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const tLongBad = await signInput('HS256', key2, `${b64u('{"alg":"HS256"}')}.${b64u(longBad)}`);
    expect(codeOfSync(() => hs().verifySync(tLongBad))).toBe('ERR_JWT_PAYLOAD_INVALID');
  });
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    for (const [name, raw] of [
      ['a string', '"1900000000"'],
      ['1e400', '1e400'],
      ['-1e400', '-1e400'],
      ['null', 'null'],
      ['true', 'true'],
      ['an array', '[1900000000]'],
      ['an object', '{"n":1}'],
      ['"NaN"', '"NaN"'],
    ] as const) {
      it(`${claim} as ${name}`, async () => {
        const base = { ...claims() } as Record<string, unknown>;
        delete base[claim];
        const text = JSON.stringify(base).slice(0, -1) + `,"${claim}":${raw}}`;
        const t = await hmacToken(secret, {}, text);
        const err = await hs()
          .verify(t)
          .catch((e: { code: string; claim: string }) => e);
        expect((err as { code: string }).code).toBe('ERR_JWT_CLAIM_INVALID');
        expect((err as { claim: string }).claim).toBe(claim);
      });
    }
  }
  it('claims are never examined when the signature fails', async () => {
    const t = await hmacToken(new Uint8Array(32).fill(9), {}, claims({ exp: 1, nbf: 'x', aud: 'wrong' }));
    expect(codeOfSync(() => hs({ audience: 'api' }).verifySync(t))).toBe('ERR_JWS_SIGNATURE_INVALID');
  });
  it('missing aud when an audience is configured', async () => {
    const c = claims();
    delete c.aud;
    const t = await hmacToken(secret, {}, c);
    const err = await hs({ audience: 'api' })
      .verify(t)
      .catch((e: { code: string; claim: string }) => e);
    expect(err).toMatchObject({ code: 'ERR_JWT_CLAIM_INVALID', claim: 'aud' });
  });
  it('typ mismatch (an ID token where an access token is required)', async () => {
    const t = await hmacToken(secret, { typ: 'JWT' }, claims());
    const err = await hs({ typ: 'at+jwt' })
      .verify(t)
      .catch((e: { code: string; claim: string }) => e);
    expect(err).toMatchObject({ code: 'ERR_JWT_CLAIM_INVALID', claim: 'typ' });
    const missing = await hmacToken(secret, {}, claims());
    expect(await codeOf(() => hs({ typ: 'at+jwt' }).verify(missing))).toBe('ERR_JWT_CLAIM_INVALID');
    const ok = await hmacToken(secret, { typ: 'application/AT+JWT' }, claims());
    expect(await codeOf(() => hs({ typ: 'at+jwt' }).verify(ok))).toBe('OK');
  });
  it('error messages never contain the token or key material', async () => {
    const t = await hmacToken(secret, { kid: 'SECRET-KID-VALUE' }, claims({ sub: 'SECRET-SUBJECT', exp: 1 }));
    const messages: string[] = [];
    for (const v of [
      hs(),
      hs({ audience: 'x' }),
      createVerifier({ algorithms: ['HS256'], key: new Uint8Array(32), currentDate: nowDate }),
    ]) {
      await v.verify(t).catch((e: Error) => messages.push(e.message + String(e.stack)));
    }
    await hs()
      .verify(t.slice(0, 20) + '!' + t.slice(21))
      .catch((e: Error) => messages.push(e.message));
    expect(messages.length).toBe(4);
    for (const m of messages) {
      expect(m).not.toContain('SECRET');
      expect(m).not.toContain(t.slice(0, 16));
      expect(m).not.toContain(t.split('.')[2]!.slice(0, 12));
    }
  });
});
