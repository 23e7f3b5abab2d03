// The in-place decode of a compact JWS inside the Wasm core (Core.decodeJws): every
// segment length across the SIMD block boundaries against an independent decoder,
// every character outside the alphabet at every position, the UTF-8 verdicts, and
// the re-decode when something else wrote over the core's regions in between.
import { describe, expect, it } from 'vitest';
import { createRemoteJWKSet, createVerifier } from '../../src/index.js';
import { getCore } from '../../src/wasm/instance.js';
import { signingViews } from '../../src/wasm/core.js';
import { coreHash } from '../../src/wasm/core-hash.js';
import { importHmacKey } from '../../src/wasm/keys.js';
import { WasmHandle } from '../../src/signature.js';
import { isJwtError } from '../../src/errors.js';
import { seededBytes } from './bytes.js';
import { b64u, claims, codeOf, generate, mint, nowDate, signInput } from './jwt-mint.js';

const HEADER = b64u('{"alg":"HS256"}');
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function decode(token: string) {
  const h = token.indexOf('.');
  const p = token.indexOf('.', h + 1);
  return getCore().decodeJws(token, h, p);
}

function malformed(token: string): boolean {
  try {
    decode(token);
  } catch (e) {
    return isJwtError(e, 'ERR_JWT_MALFORMED');
  }
  return false;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

describe('Core.decodeJws', () => {
  it('decodes payloads of every length 0..300 and signatures of 1..300 bytes exactly', () => {
    const core = getCore();
    for (let n = 0; n <= 300; n++) {
      const payload = seededBytes(n + 1, n);
      const sig = seededBytes(n + 1000, Math.max(1, n));
      const out = decode(`${HEADER}.${b64u(payload)}.${b64u(sig)}`);
      expect(out.payloadLength).toBe(n);
      expect(out.signatureLength).toBe(sig.length);
      expect(same(core.payloadBytes(out), payload)).toBe(true);
      expect(same(signingViews(core, out)![1], sig)).toBe(true);
    }
  });

  it('decodes long segments (RSA-16384-sized signatures, 40 KB payloads)', () => {
    const core = getCore();
    for (const [n, s] of [
      [40_000, 64],
      [1000, 2048],
      [20_000, 20_000],
    ] as const) {
      const payload = seededBytes(n, n);
      const sig = seededBytes(s, s);
      const out = decode(`${HEADER}.${b64u(payload)}.${b64u(sig)}`);
      expect(same(core.payloadBytes(out), payload)).toBe(true);
      expect(same(signingViews(core, out)![1], sig)).toBe(true);
    }
  });

  it('refuses every ASCII character outside the alphabet at every position of both segments', () => {
    const seg = ALPHABET.slice(0, 40); // 40 characters: two SIMD blocks and a scalar tail
    let refused = 0;
    for (let c = 0; c < 128; c++) {
      const ch = String.fromCharCode(c);
      if (ALPHABET.includes(ch) || ch === '.') continue;
      for (let i = 0; i < seg.length; i++) {
        const bad = seg.slice(0, i) + ch + seg.slice(i + 1);
        if (malformed(`${HEADER}.${bad}.${seg}`) && malformed(`${HEADER}.${seg}.${bad}`)) refused++;
      }
    }
    expect(refused).toBe((128 - 65) * 40);
  });

  it('refuses non-ASCII characters, including ones whose low byte is a base64url letter', () => {
    const seg = ALPHABET.slice(0, 24);
    for (const ch of ['\u0141', '\u0100', '\u00e9', '\u00ff', '\u4e00', '\ud800', '\ud83d\ude00']) {
      for (const i of [0, 7, 16, 23]) {
        const bad = seg.slice(0, i) + ch + seg.slice(i + 1);
        expect(malformed(`${HEADER}.${bad}.${seg}`)).toBe(true);
        expect(malformed(`${HEADER}.${seg}.${bad}`)).toBe(true);
      }
    }
  });

  it('refuses impossible lengths and non-zero unused bits in either segment', () => {
    for (let n = 1; n < 70; n++) {
      const text = b64u(seededBytes(n, n));
      const last = ALPHABET.indexOf(text[text.length - 1]!);
      const mask = text.length % 4 === 2 ? 0x0f : text.length % 4 === 3 ? 0x03 : 0;
      if (mask !== 0) {
        const flipped = text.slice(0, -1) + ALPHABET[last | 1]!;
        if (flipped !== text) {
          expect(malformed(`${HEADER}.${flipped}.AAAA`)).toBe(true);
          expect(malformed(`${HEADER}.AAAA.${flipped}`)).toBe(true);
        }
      }
      if (text.length % 4 === 0) {
        expect(malformed(`${HEADER}.${text}A.AAAA`)).toBe(true);
        expect(malformed(`${HEADER}.AAAA.${text}A`)).toBe(true);
      }
    }
  });

  it('gives the payload text for ASCII and well-formed UTF-8, and none for ill-formed bytes', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const cases = ['{"a":1}', '{"name":"Zoë","city":"Zürich"}', '{"e":"€","g":"😀"}', '\ufeff{"bom":true}'];
    for (const text of cases) expect(decode(`${HEADER}.${b64u(text)}.AAAA`).payload).toBe(text);
    const bad = [
      [0xc0, 0x80],
      [0xe0, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0x80],
      [0x41, 0xe2, 0x82],
      [0xff],
    ];
    for (const bytes of bad) expect(decode(`${HEADER}.${b64u(new Uint8Array(bytes))}.AAAA`).payload).toBeUndefined();
    // Random bytes with many high bits: the verdict always matches a fatal TextDecoder.
    for (let seed = 1; seed <= 3000; seed++) {
      const bytes = seededBytes(seed, (seed % 23) + 1).map((b) => (b & 1 ? b | 0x80 : b & 0x7f));
      let expected: string | undefined;
      try {
        expected = fatal.decode(bytes);
      } catch {
        expected = undefined;
      }
      expect(decode(`${HEADER}.${b64u(bytes)}.AAAA`).payload).toBe(expected);
    }
  });

  it('answers bad raw calls with status codes, never a trap', () => {
    const x = getCore().exports;
    expect(x.jws_decode(x.input_cap.value + 1, 1, 3)).toBe(-2);
    expect(x.jws_decode(10, 5, 5)).toBe(-2);
    expect(x.jws_decode(10, 2, 10)).toBe(-2);
    coreHash(getCore(), 'SHA-256', new TextEncoder().encode('no dots here at all'));
    expect(x.jws_decode(10, 2, 5)).toBe(-6);
  });

  it('decodes again when another call wrote over the regions before the check', async () => {
    const secret = seededBytes(5, 32);
    const key = await crypto.subtle.importKey('raw', secret as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const token = await signInput('HS256', key, `${HEADER}.${b64u(JSON.stringify({ sub: 'x' }))}`);
    const h = token.indexOf('.');
    const p = token.lastIndexOf('.');
    const wasmKey = importHmacKey(secret, 'HS256');
    const handle = new WasmHandle(wasmKey);
    const out = getCore().decodeJws(token, h, p);
    // A plain hash and a key import both write INPUT.
    coreHash(getCore(), 'SHA-256', seededBytes(9, 700));
    const other = importHmacKey(seededBytes(6, 32), 'HS256');
    expect(handle.verify(out)).toBe(true);
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'AQ' : 'AA'}`;
    const forgedOut = getCore().decodeJws(forged, h, p);
    expect(handle.verify(out)).toBe(true);
    expect(handle.verify(forgedOut)).toBe(false);
    wasmKey.drop();
    other.drop();
  });

  it(
    'a verify that waits for its key checks its own token, ' + 'decoded again after other verifies used the core',
    async () => {
      const other = await generate('HS256');
      const busy = createVerifier({ algorithms: ['HS256'], key: other.secret!, currentDate: nowDate, cache: false });
      const busyToken = await mint(other, claims({ sub: 'someone-else' }));
      for (const alg of ['EdDSA', 'ES256', 'HS256'] as const) {
        const pair = await generate(alg);
        let open!: () => void;
        const gate = new Promise<void>((r) => (open = r));
        const fetchJwks = (async () => {
          await gate;
          return new Response(JSON.stringify({ keys: [{ ...pair.publicJwk, kid: 'k' }] }), { status: 200 });
        }) as typeof fetch;
        const jwks = createRemoteJWKSet('https://issuer.example/jwks', { fetch: fetchJwks, allowHmac: true });
        const v = createVerifier({ algorithms: [alg], jwks, currentDate: nowDate, cache: false });
        const token = await mint(pair, claims(), { kid: 'k' });
        const forged = await mint(pair, claims({ sub: 'admin' }), { kid: 'k' }).then(
          (t) => `${t.slice(0, t.lastIndexOf('.'))}${token.slice(token.lastIndexOf('.'))}`,
        );
        const pending = [codeOf(() => v.verify(token)), codeOf(() => v.verify(forged))];
        // While both wait for the key set, other tokens go through the core's regions.
        for (let i = 0; i < 5; i++) expect(busy.verifySync(busyToken).payload.sub).toBe('someone-else');
        open();
        expect(await Promise.all(pending), alg).toEqual(['OK', 'ERR_JWS_SIGNATURE_INVALID']);
      }
    },
  );

  it('verifies through a JWK secret imported between the decode and the check', async () => {
    const secret = seededBytes(7, 32);
    const key = await crypto.subtle.importKey('raw', secret as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const token = await signInput('HS256', key, `${HEADER}.${b64u(JSON.stringify(claims()))}`);
    // A fresh JWK entry imports its Wasm slot lazily, inside the verify, after the decode.
    for (let i = 0; i < 3; i++) {
      const v = createVerifier({
        algorithms: ['HS256'],
        key: { kty: 'oct', k: b64u(secret) },
        currentDate: nowDate,
        cache: false,
      });
      expect(v.verifySync(token).payload.sub).toBe('user-1');
    }
  });
});
