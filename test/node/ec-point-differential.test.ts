// src/keys/ec-point.ts against node:crypto: for genuine public keys, their negations,
// coordinates changed by one bit, unreduced coordinates (x + p) and random bytes,
// isOnCurve's verdict equals whether node:crypto (OpenSSL) imports the point.
// Cases per curve: EDGEJWT_EC_POINT_CASES (default 300).
import { Buffer } from 'node:buffer';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOnCurve } from '../../src/keys/ec-point.js';

const CASES = Number(process.env.EDGEJWT_EC_POINT_CASES ?? 300);
const P: Record<string, bigint> = {
  'P-256': 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n,
  'P-384': 2n ** 384n - 2n ** 128n - 2n ** 96n + 2n ** 32n - 1n,
  'P-521': 2n ** 521n - 1n,
};
const SIZE: Record<string, number> = { 'P-256': 32, 'P-384': 48, 'P-521': 66 };

const big = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);
function bytes(v: bigint, size: number): Uint8Array | undefined {
  const hex = v.toString(16).padStart(size * 2, '0');
  return hex.length > size * 2 ? undefined : new Uint8Array(Buffer.from(hex, 'hex'));
}

function nodeAccepts(crv: string, x: Uint8Array, y: Uint8Array): boolean {
  try {
    createPublicKey({
      key: { kty: 'EC', crv, x: Buffer.from(x).toString('base64url'), y: Buffer.from(y).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

type Variant = 'genuine' | 'negated' | 'bitflip-x' | 'bitflip-y' | 'x-plus-p' | 'y-plus-p' | 'random' | 'random-y';

describe('isOnCurve agrees with node:crypto', () => {
  for (const crv of ['P-256', 'P-384', 'P-521']) {
    it(`${crv}: ${CASES} points, genuine and altered`, () => {
      const size = SIZE[crv]!;
      const p = P[crv]!;
      const seen: Record<string, number> = {};
      const variant = fc.constantFrom<Variant>(
        'genuine',
        'negated',
        'bitflip-x',
        'bitflip-y',
        'x-plus-p',
        'y-plus-p',
        'random',
        'random-y',
      );
      const cases = fc.sample(
        fc.tuple(variant, fc.nat({ max: size * 8 - 1 }), fc.uint8Array({ minLength: size, maxLength: size })),
        { numRuns: CASES, seed: 0xec + size },
      );
      for (const [v, bit, noise] of cases) {
        const jwk = generateKeyPairSync('ec', { namedCurve: crv }).publicKey.export({ format: 'jwk' });
        const gx = new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
        const gy = new Uint8Array(Buffer.from(jwk.y!, 'base64url'));
        const flip = (c: Uint8Array): Uint8Array => {
          const out = c.slice();
          out[out.length - 1 - (bit >> 3)]! ^= 1 << (bit & 7);
          return out;
        };
        let x: Uint8Array | undefined = gx;
        let y: Uint8Array | undefined = gy;
        if (v === 'negated') y = bytes(p - big(gy), size);
        if (v === 'bitflip-x') x = flip(gx);
        if (v === 'bitflip-y') y = flip(gy);
        if (v === 'x-plus-p') x = bytes(big(gx) + p, size);
        if (v === 'y-plus-p') y = bytes(big(gy) + p, size);
        if (v === 'random') x = noise;
        if (v === 'random-y') y = noise;
        if (x === undefined || y === undefined) continue; // x + p does not fit the coordinate length
        const ours = isOnCurve(crv, x, y);
        expect(ours, `${crv} ${v}`).toBe(nodeAccepts(crv, x, y));
        seen[`${v}:${ours}`] = (seen[`${v}:${ours}`] ?? 0) + 1;
      }
      // Both verdicts were exercised, genuine points and negations always on the curve.
      expect(seen['genuine:true']).toBeGreaterThan(0);
      expect(seen['negated:true']).toBeGreaterThan(0);
      expect(seen['bitflip-y:false']).toBeGreaterThan(0);
      expect(seen['genuine:false'] ?? 0).toBe(0);
    });
  }

  it('other curve names and lengths are never on a curve', () => {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const x = new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
    const y = new Uint8Array(Buffer.from(jwk.y!, 'base64url'));
    expect(isOnCurve('P-256', x, y)).toBe(true);
    expect(isOnCurve('secp256k1', x, y)).toBe(false);
    expect(isOnCurve('__proto__', x, y)).toBe(false);
    expect(isOnCurve('P-256', new Uint8Array([0, ...x]), new Uint8Array([0, ...y]))).toBe(false);
    expect(isOnCurve('P-384', x, y)).toBe(false);
  });
});
