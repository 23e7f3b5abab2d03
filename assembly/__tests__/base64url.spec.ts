// Internals of the strict base64url decoder and the UTF-8 classifier that the
// in-place JWS decode (jws_decode) is built from.
import { decodeBase64Url, decodedLength, encodeBase64Url, encodedLength } from '../base64url';
import { utf8Class, UTF8_ASCII, UTF8_VALID, UTF8_INVALID } from '../utf8';
import { fromHex, hexOf } from './hex';

const SRC = memory.data(256, 16);
const DST = memory.data(256, 16);
const OUT = memory.data(400, 16);

function writeText(text: string): usize {
  for (let i = 0; i < text.length; i++) store<u8>(SRC + i, <u8>text.charCodeAt(i));
  return text.length;
}

function decodeHex(text: string): string {
  const n = decodeBase64Url(SRC, <u32>writeText(text), DST);
  return n < 0 ? 'invalid' : hexOf(DST, n);
}

function classOf(h: string): i32 {
  fromHex(DST, h);
  return utf8Class(DST, h.length / 2);
}

describe('decodedLength', () => {
  it('maps every remainder', () => {
    expect<i32>(decodedLength(0)).toBe(0);
    expect<i32>(decodedLength(1)).toBe(-1);
    expect<i32>(decodedLength(2)).toBe(1);
    expect<i32>(decodedLength(3)).toBe(2);
    expect<i32>(decodedLength(4)).toBe(3);
    expect<i32>(decodedLength(65)).toBe(-1);
    expect<i32>(decodedLength(66)).toBe(49);
  });
});

describe('decodeBase64Url', () => {
  it('decodes the RFC 4648 §10 vectors without padding', () => {
    expect<string>(decodeHex('')).toBe('');
    expect<string>(decodeHex('Zg')).toBe('66');
    expect<string>(decodeHex('Zm8')).toBe('666f');
    expect<string>(decodeHex('Zm9v')).toBe('666f6f');
    expect<string>(decodeHex('Zm9vYg')).toBe('666f6f62');
    expect<string>(decodeHex('Zm9vYmE')).toBe('666f6f6261');
    expect<string>(decodeHex('Zm9vYmFy')).toBe('666f6f626172');
  });

  it('uses the URL alphabet, in the SIMD loop and in the tail', () => {
    // 16 characters take the SIMD path, the last 4 the scalar one: both see - and _.
    expect<string>(decodeHex('-_-_-_-_-_-_-_-_-_-_')).toBe('fbffbffbffbffbffbffbffbffbffbf');
    expect<string>(decodeHex('AZaz09-_AZaz09-_')).toBe('0196b3d3dfbf0196b3d3dfbf');
  });

  it('refuses padding, the standard alphabet, whitespace and impossible lengths', () => {
    expect<string>(decodeHex('Zg==')).toBe('invalid');
    expect<string>(decodeHex('Zm9v+/+/')).toBe('invalid');
    expect<string>(decodeHex('Zm9v Yg')).toBe('invalid');
    expect<string>(decodeHex('Zm9vY')).toBe('invalid');
    expect<string>(decodeHex('Zm9vYmFyZm9vYmFyZm9vYmF+')).toBe('invalid');
    expect<string>(decodeHex('Zm9vYmFyZm9vYmF+Zm9vYmFy')).toBe('invalid');
  });

  it('refuses non-zero unused bits in the last character', () => {
    expect<string>(decodeHex('Zh')).toBe('invalid');
    expect<string>(decodeHex('Zm9')).toBe('invalid');
    expect<string>(decodeHex('Zm-')).toBe('invalid');
  });

  it('refuses every byte outside the alphabet at every position of a SIMD block and the tail', () => {
    const good = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldY';
    for (let c = 0; c < 256; c++) {
      const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95;
      if (ok) continue;
      for (let pos = 0; pos < good.length; pos++) {
        writeText(good);
        store<u8>(SRC + pos, <u8>c);
        expect<i32>(decodeBase64Url(SRC, <u32>good.length, DST)).toBe(-1);
      }
    }
  });
});

/** The base64url of hex bytes `h`, with a check that nothing past the result was written. */
function encodeHex(h: string): string {
  fromHex(DST, h);
  memory.fill(OUT, 0xee, 400);
  const n = encodeBase64Url(DST, <u32>(h.length / 2), OUT);
  if (load<u8>(OUT + n) != 0xee) return 'overrun';
  let s = '';
  for (let i: u32 = 0; i < n; i++) s += String.fromCharCode(load<u8>(OUT + i));
  return s;
}

describe('encodeBase64Url', () => {
  it('encodes the RFC 4648 §10 vectors without padding', () => {
    expect<string>(encodeHex('')).toBe('');
    expect<string>(encodeHex('66')).toBe('Zg');
    expect<string>(encodeHex('666f')).toBe('Zm8');
    expect<string>(encodeHex('666f6f')).toBe('Zm9v');
    expect<string>(encodeHex('666f6f62')).toBe('Zm9vYg');
    expect<string>(encodeHex('666f6f6261')).toBe('Zm9vYmE');
    expect<string>(encodeHex('666f6f626172')).toBe('Zm9vYmFy');
  });

  it('uses the URL alphabet and every class boundary, in the SIMD loop and in the tail', () => {
    // 0x00 0x10 0x83 ... : the 6-bit values 0..63 in order, 48 bytes (three SIMD steps and a scalar tail).
    const all = '00108310518720928b30d38f41149351559761969b71d79f8218a39259a7a29aabb2dbafc31cb3d35db7e39ebbf3dfbf';
    const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    expect<string>(encodeHex(all)).toBe(chars);
    expect<string>(encodeHex(all.substr(48))).toBe(chars.substr(32));
    expect<string>(encodeHex('fbffbffbffbffbffbffbffbffbffbf')).toBe('-_-_-_-_-_-_-_-_-_-_');
    expect<string>(encodeHex('0196b3d3dfbf0196b3d3dfbf')).toBe('AZaz09-_AZaz09-_');
  });

  it('round-trips through the decoder at every length from 0 to 200', () => {
    let x: u32 = 0x9e3779b9;
    for (let i = 0; i < 200; i++) {
      x ^= x << 13; x ^= x >> 17; x ^= x << 5;
      store<u8>(SRC + i, <u8>x);
    }
    for (let len: u32 = 0; len <= 200; len++) {
      memory.fill(OUT, 0xee, 400);
      const n = encodeBase64Url(SRC, len, OUT);
      expect<u32>(n).toBe(encodedLength(len));
      expect<u8>(load<u8>(OUT + n)).toBe(0xee);
      expect<i32>(decodeBase64Url(OUT, n, DST)).toBe(<i32>len);
      expect<i32>(memory.compare(SRC, DST, len)).toBe(0);
    }
  });
});

describe('utf8Class', () => {
  it('tells ASCII, well-formed and ill-formed apart', () => {
    expect<i32>(classOf('')).toBe(UTF8_ASCII);
    expect<i32>(classOf('7b2261223a317d')).toBe(UTF8_ASCII);
    expect<i32>(classOf('c3a9')).toBe(UTF8_VALID);
    expect<i32>(classOf('e282ac')).toBe(UTF8_VALID);
    expect<i32>(classOf('f09f9880')).toBe(UTF8_VALID);
    expect<i32>(classOf('f48fbfbf')).toBe(UTF8_VALID);
    expect<i32>(classOf('efbbbf')).toBe(UTF8_VALID);
  });

  it('refuses overlong forms, surrogates, values above U+10FFFF and cut sequences', () => {
    expect<i32>(classOf('c080')).toBe(UTF8_INVALID);
    expect<i32>(classOf('c1bf')).toBe(UTF8_INVALID);
    expect<i32>(classOf('e08080')).toBe(UTF8_INVALID);
    expect<i32>(classOf('e09fbf')).toBe(UTF8_INVALID);
    expect<i32>(classOf('eda080')).toBe(UTF8_INVALID);
    expect<i32>(classOf('f08f8080')).toBe(UTF8_INVALID);
    expect<i32>(classOf('f4908080')).toBe(UTF8_INVALID);
    expect<i32>(classOf('f5808080')).toBe(UTF8_INVALID);
    expect<i32>(classOf('80')).toBe(UTF8_INVALID);
    expect<i32>(classOf('41e282')).toBe(UTF8_INVALID);
    expect<i32>(classOf('c3')).toBe(UTF8_INVALID);
    expect<i32>(classOf('ff')).toBe(UTF8_INVALID);
  });

  it('finds a high bit in the 8-byte loop and in the tail', () => {
    expect<i32>(classOf('4141414141414141c3a941')).toBe(UTF8_VALID);
    expect<i32>(classOf('414141414141414141c3a9')).toBe(UTF8_VALID);
    expect<i32>(classOf('41414141414141414141414141414180')).toBe(UTF8_INVALID);
  });
});
