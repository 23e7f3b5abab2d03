// EC public points checked on their curve, wherever one enters: verify keys, key-set
// entries, signing keys' public parts, JWE recipient keys and the `epk` of a JWE
// header (network input: an off-curve epk is the invalid-curve attack on ECDH-ES,
// which leaks the recipient's private key bit by bit). Some WebCrypto
// implementations import off-curve points without a word, so the check is ours and
// does not depend on the runtime. Short Weierstrass curves with a = -3 (SEC 2,
// FIPS 186-5): a point (x, y) is on the curve iff x, y < p and
// y^2 = x^3 - 3x + b (mod p). The point at infinity has no JWK form.

import { JwtError } from '../errors.js';
import { decodeSegment } from '../b64.js';

interface Curve {
  readonly p: bigint;
  readonly b: bigint;
  /** Coordinate length in bytes. */
  readonly size: number;
}

const CURVES: Readonly<Record<string, Curve>> = {
  'P-256': {
    p: 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n,
    b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
    size: 32,
  },
  'P-384': {
    p: 2n ** 384n - 2n ** 128n - 2n ** 96n + 2n ** 32n - 1n,
    b: 0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aefn,
    size: 48,
  },
  'P-521': {
    p: 2n ** 521n - 1n,
    // SEC 2 / FIPS 186-4's b for P-521, in two halves of 66 hex digits (one literal would not fit a line).
    b:
      (0x0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109n << 264n) |
      0xe156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00n,
    size: 66,
  },
};

function toBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const byte of bytes) v = (v << 8n) | BigInt(byte);
  return v;
}

/**
 * Is (x, y), big-endian coordinates of exactly the curve's length, a point on `crv`
 * (P-256, P-384, P-521)? False for any other curve name or length, and for a
 * coordinate that is not reduced mod p.
 *
 * @example
 * isOnCurve('P-256', xBytes, yBytes); // true for a genuine public key, false once y is changed
 */
export function isOnCurve(crv: string, x: Uint8Array, y: Uint8Array): boolean {
  const c = Object.hasOwn(CURVES, crv) ? CURVES[crv] : undefined;
  if (c === undefined || x.length !== c.size || y.length !== c.size) return false;
  const X = toBigInt(x);
  const Y = toBigInt(y);
  if (X >= c.p || Y >= c.p) return false;
  const right = (((X * X) % c.p) * X - 3n * X + c.b) % c.p;
  return (Y * Y - right) % c.p === 0n;
}

/**
 * Throws ERR_KEY_INVALID (or `code`) unless the JWK members `x` and `y` are base64url
 * coordinates of a point on `crv`. `code` lets the JWE layer answer ERR_JWE_EPK_INVALID
 * for a hostile `epk`.
 *
 * @example
 * checkEcPoint({ crv: 'P-256', x: jwk.x, y: jwk.y }); // throws ERR_KEY_INVALID for an off-curve point
 * checkEcPoint(header.epk, 'ERR_JWE_EPK_INVALID');
 */
export function checkEcPoint(
  jwk: { crv?: unknown; x?: unknown; y?: unknown },
  code: 'ERR_KEY_INVALID' | 'ERR_JWE_EPK_INVALID' = 'ERR_KEY_INVALID',
): void {
  const x = typeof jwk.x === 'string' ? decodeSegment(jwk.x, 0, jwk.x.length) : undefined;
  const y = typeof jwk.y === 'string' ? decodeSegment(jwk.y, 0, jwk.y.length) : undefined;
  if (typeof jwk.crv !== 'string' || x === undefined || y === undefined || !isOnCurve(jwk.crv, x, y)) {
    throw new JwtError(code, { reason: 'EC point is not on the curve' });
  }
}
