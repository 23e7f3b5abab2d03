// The JS decode of a compact JWS (src/jws-bytes.ts, used for RS/PS/ES tokens while the
// Wasm core has not started) against the core's own (Core.decodeJws), in every runtime:
// the JS side runs on each runtime's base64url and UTF-8 (Buffer, Uint8Array.fromBase64,
// TextDecoder), so its strictness is checked where it runs. Same value, same error.
import { describe, expect, it } from 'vitest';
import { decodeJwsInJs, payloadBytes } from '../../src/jws-bytes.js';
import { getCore } from '../../src/wasm/instance.js';
import { signingViews } from '../../src/wasm/core.js';
import { seededBytes } from './bytes.js';
import { b64u } from './jwt-mint.js';

const HEADER = b64u('{"alg":"RS256"}');
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What decoding `token` gives: the decoded value as text, or the error's code and message. */
function outcome(token: string, inCore: boolean): string {
  const h = token.indexOf('.');
  const p = token.indexOf('.', h + 1);
  try {
    const jws = inCore ? getCore().decodeJws(token, h, p) : decodeJwsInJs(token, h, p);
    const signature = jws.held !== undefined ? jws.held.signature : signingViews(getCore(), jws)![1];
    return JSON.stringify([
      jws.payload,
      jws.payloadLength,
      jws.signatureLength,
      hex(payloadBytes(jws)),
      hex(signature),
    ]);
  } catch (e) {
    return `${(e as { code?: string }).code}: ${(e as Error).message}`;
  }
}

function agree(token: string): boolean {
  return outcome(token, false) === outcome(token, true);
}

describe('decodeJwsInJs agrees with Core.decodeJws', () => {
  it('jws_bytes_js_decode_matches_core on segments of every length 0..200, short and past 128 characters', () => {
    for (let n = 0; n <= 200; n++) {
      const token = `${HEADER}.${b64u(seededBytes(n + 1, n))}.${b64u(seededBytes(n + 500, Math.max(1, n)))}`;
      expect(agree(token)).toBe(true);
      expect(outcome(token, false).startsWith('[')).toBe(true);
    }
  });

  it(
    'jws_bytes_js_decode_refuses_what_the_core_refuses: every ASCII character outside the alphabet, padding, ' +
      'whitespace',
    () => {
      // 40 and 180 characters: under and over the length where a runtime's native base64 decoder takes over.
      for (const seg of [ALPHABET.slice(0, 40), (ALPHABET + ALPHABET + ALPHABET).slice(0, 180)]) {
        for (let c = 0; c < 128; c++) {
          const ch = String.fromCharCode(c);
          if (ALPHABET.includes(ch) || ch === '.') continue;
          for (const i of [0, 1, 17, seg.length - 2, seg.length - 1]) {
            const bad = seg.slice(0, i) + ch + seg.slice(i + 1);
            for (const token of [
              `${HEADER}.${bad}.${seg}`,
              `${HEADER}.${seg}.${bad}`,
              `${HEADER}.${seg}${ch}.${seg}`,
              `${HEADER}.${seg}.${seg}${ch}`,
            ]) {
              expect(agree(token), JSON.stringify(token)).toBe(true);
              expect(outcome(token, false)).toMatch(/^ERR_JWT_MALFORMED/);
            }
          }
        }
      }
    },
  );

  it('jws_bytes_js_decode_refuses_non_ascii_and_bad_tails like the core', () => {
    const seg = ALPHABET.slice(0, 24);
    for (const ch of ['\u0141', '\u0100', '\u00e9', '\u00ff', '\u4e00', '\ud800', '\ud83d\ude00']) {
      for (const i of [0, 7, 23]) {
        const bad = seg.slice(0, i) + ch + seg.slice(i + 1);
        expect(agree(`${HEADER}.${bad}.${seg}`)).toBe(true);
        expect(agree(`${HEADER}.${seg}.${bad}`)).toBe(true);
        expect(agree(`${HEADER}.${bad}.${bad}`)).toBe(true);
      }
    }
    // Impossible lengths (4n+1) and non-zero unused bits in the last character.
    for (const tail of ['A', 'AAAAA', 'AB', 'AAB', 'AAAAAB', 'AAAAAAB', 'AQ', 'AAE']) {
      expect(agree(`${HEADER}.${tail}.${seg}`)).toBe(true);
      expect(agree(`${HEADER}.${seg}.${tail}`)).toBe(true);
    }
  });

  it('jws_bytes_js_decode_keeps_utf8_verdicts: invalid UTF-8 payloads have no text, a BOM stays', () => {
    for (const bytes of [
      [0xc3, 0x28],
      [0xed, 0xa0, 0x80],
      [0xf0, 0x82, 0x82, 0xac],
      [0xff],
      [0xef, 0xbb, 0xbf, 0x7b, 0x7d],
      [0xe2, 0x82, 0xac],
    ]) {
      const token = `${HEADER}.${b64u(new Uint8Array(bytes))}.${b64u(seededBytes(3, 64))}`;
      expect(agree(token)).toBe(true);
    }
  });
});
