// A verifier that allows no HS*/EdDSA never instantiates the Wasm core: RS/PS/ES tokens
// are decoded in JS (src/jws-bytes.ts) while the core has not started. Node only: the core is one per process here,
// and Vitest gives each file its own, so `coreStarted()` is false until this file
// starts it (the last test does, proving the hook can see it). The JS decoder and the
// core's give the same DecodedJws and the same errors, checked on arbitrary segments.
import { generateKeyPairSync, sign } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier, type JWK } from '../../src/index.js';
import { decodeJwsInJs, payloadBytes } from '../../src/jws-bytes.js';
import { coreStarted, getCore } from '../../src/wasm/instance.js';
import { signingViews } from '../../src/wasm/core.js';

const b64u = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsJwk = rsa.publicKey.export({ format: 'jwk' }) as JWK;
const esJwk = ec.publicKey.export({ format: 'jwk' }) as JWK;
const exp = Math.floor(Date.now() / 1000) + 600;

function rs256(payload: object, alg = 'RS256'): string {
  const input = `${b64u(JSON.stringify({ alg }))}.${b64u(JSON.stringify(payload))}`;
  return `${input}.${b64u(sign('sha256', Buffer.from(input), rsa.privateKey))}`;
}
function es256(payload: object): string {
  const input = `${b64u(JSON.stringify({ alg: 'ES256' }))}.${b64u(JSON.stringify(payload))}`;
  return `${input}.${b64u(sign('sha256', Buffer.from(input), { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }))}`;
}
async function code(f: () => unknown): Promise<string> {
  try {
    await f();
    return 'OK';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

describe('no HS*/EdDSA allowed: the Wasm core is never instantiated', () => {
  it('rs256_only_verifier_never_instantiates_core', async () => {
    expect(coreStarted()).toBe(false);
    const v = createVerifier({ algorithms: ['RS256'], key: rsJwk, cache: false });
    const token = rs256({ sub: 'a', exp });
    expect((await v.verify(token)).payload.sub).toBe('a');
    expect(v.verifySync(token).payload.sub).toBe('a');
    // Every refusal too: a bad signature, a bad segment, and a token naming HS256 or EdDSA.
    const [h, p, s] = token.split('.') as [string, string, string];
    expect(await code(() => v.verify(`${h}.${p}.${(s[0] === 'A' ? 'B' : 'A') + s.slice(1)}`))).toBe(
      'ERR_JWS_SIGNATURE_INVALID',
    );
    expect(await code(() => v.verify(`${h}.${p}=.${s}`))).toBe('ERR_JWT_MALFORMED');
    expect(await code(() => v.verify(`${h}.${p}.${s}!`))).toBe('ERR_JWT_MALFORMED');
    expect(await code(() => v.verify(rs256({ sub: 'a', exp }, 'HS256')))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
    expect(await code(() => v.verify(rs256({ sub: 'a', exp }, 'EdDSA')))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
    expect(coreStarted()).toBe(false);
  });

  it('es256_issuers_and_raw_payload_never_instantiate_core', async () => {
    const multi = createVerifier({
      issuers: [
        { issuer: 'https://a.example', algorithms: ['ES256'], key: esJwk },
        { issuer: 'https://b.example', algorithms: ['RS256', 'PS256'], key: rsJwk },
      ],
    });
    expect((await multi.verify(es256({ iss: 'https://a.example', sub: 'e', exp }))).payload.sub).toBe('e');
    expect((await multi.verify(rs256({ iss: 'https://b.example', sub: 'r', exp }))).payload.sub).toBe('r');
    const raw = createVerifier({ algorithms: ['RS256'], key: rsJwk, rawPayload: true });
    const token = rs256({ sub: 'raw', exp });
    const r = await raw.verify(token);
    expect(Buffer.from(r.payload).toString()).toBe(JSON.stringify({ sub: 'raw', exp }));
    expect(coreStarted()).toBe(false);
  });

  // Last in this file: it starts the core, and proves coreStarted() sees that.
  it('an HS256 token on a verifier that allows HS256 starts the core', async () => {
    const secret = new Uint8Array(32).fill(3);
    const input = `${b64u(JSON.stringify({ alg: 'HS256' }))}.${b64u(JSON.stringify({ sub: 'h', exp }))}`;
    const { createHmac } = await import('node:crypto');
    const token = `${input}.${b64u(createHmac('sha256', secret).update(input).digest())}`;
    const v = createVerifier({ algorithms: ['HS256', 'RS256'], key: secret });
    expect(coreStarted()).toBe(false);
    expect((await v.verify(token)).payload.sub).toBe('h');
    expect(coreStarted()).toBe(true);
    // With the core running, an RS256 token is decoded there (the faster decode): same verdicts.
    const rs = createVerifier({ algorithms: ['RS256'], key: rsJwk, cache: false });
    const good = rs256({ sub: 'a', exp });
    expect(rs.verifySync(good).payload.sub).toBe('a');
    const [h, p, s] = good.split('.') as [string, string, string];
    expect(await code(() => rs.verify(`${h}.${p}.${(s[0] === 'A' ? 'B' : 'A') + s.slice(1)}`))).toBe(
      'ERR_JWS_SIGNATURE_INVALID',
    );
  });
});

describe('decodeJws: JS and the core agree', () => {
  const b64Char = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
  const oddChar = fc.constantFrom('=', '+', '/', ' ', '!', '\u00e9', '\u{1F600}', 'A', 'Q', 'w');
  // Mostly well-formed base64url of arbitrary bytes (valid or invalid UTF-8), sometimes one odd character or a bad
  // length.
  const segment = fc.oneof(
    fc.uint8Array({ maxLength: 300 }).map((b) => b64u(Buffer.from(b))),
    fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((s) => b64u(s)),
    fc.string({ unit: fc.oneof(b64Char, oddChar), maxLength: 60 }),
    fc.tuple(fc.uint8Array({ maxLength: 80 }), fc.nat(90), oddChar).map(([b, i, c]) => {
      const t = b64u(Buffer.from(b));
      const at = Math.min(i, t.length);
      return t.slice(0, at) + c + t.slice(at);
    }),
  );

  function outcome(token: string, h: number, p: number, inCore: boolean): unknown {
    try {
      const jws = inCore ? getCore().decodeJws(token, h, p) : decodeJwsInJs(token, h, p);
      const views: [Uint8Array, Uint8Array] =
        jws.held !== undefined
          ? [Buffer.from(token.slice(0, p), 'latin1'), jws.held.signature]
          : signingViews(getCore(), jws)!;
      return {
        payload: jws.payload,
        payloadLength: jws.payloadLength,
        signatureLength: jws.signatureLength,
        bytes: Buffer.from(payloadBytes(jws)).toString('hex'),
        signingInput: Buffer.from(views[0]).toString('hex'),
        signature: Buffer.from(views[1]).toString('hex'),
      };
    } catch (e) {
      return { code: (e as { code?: string }).code, message: (e as Error).message };
    }
  }

  it('decode_in_js_matches_core', () => {
    fc.assert(
      fc.property(segment, segment, (payload, signature) => {
        const token = `eyJhbGciOiJSUzI1NiJ9.${payload}.${signature}`;
        const h = token.indexOf('.');
        const p = token.indexOf('.', h + 1);
        expect(outcome(token, h, p, false)).toEqual(outcome(token, h, p, true));
      }),
      { numRuns: 2000 },
    );
  });
});
