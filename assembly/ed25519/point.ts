// Points of edwards25519 (RFC 8032 §5.1) in extended coordinates (X:Y:Z:T),
// x = X/Z, y = Y/Z, xy = T/Z (Hisil-Wong-Carter-Dawson 2008, a = -1), and table
// entries in affine "Niels" form (y+x, y-x, 2dxy), which make an addition 7 multiplies.
//
// Verification handles public data only, so these routines may branch on values.

import {
  FE, feAdd, feSub, feMul, feSq, feNeg, feOne, feZero, feCopy, feFromBytes, feToBytes,
  feIsZero, feIsNegative, feInvert, fePow22523,
} from './field';
import { FE_D, FE_D2, FE_SQRTM1 } from './constants';

/** Extended point: X, Y, Z, T at offsets 0, FE, 2FE, 3FE. */
export const PT: usize = 4 * FE;
/** Niels entry: y+x, y-x, 2dxy. */
export const NIELS: usize = 3 * FE;

// @ts-ignore: decorator
@inline function X(p: usize): usize { return p; }
// @ts-ignore: decorator
@inline function Y(p: usize): usize { return p + FE; }
// @ts-ignore: decorator
@inline function Z(p: usize): usize { return p + 2 * FE; }
// @ts-ignore: decorator
@inline function T(p: usize): usize { return p + 3 * FE; }

const A: usize = memory.data(40, 8);
const B: usize = memory.data(40, 8);
const C: usize = memory.data(40, 8);
const D: usize = memory.data(40, 8);
const E: usize = memory.data(40, 8);
const F: usize = memory.data(40, 8);
const G: usize = memory.data(40, 8);
const H: usize = memory.data(40, 8);

export function ptIdentity(p: usize): void {
  feZero(X(p));
  feOne(Y(p));
  feOne(Z(p));
  feZero(T(p));
}

export function ptCopy(r: usize, p: usize): void {
  memory.copy(r, p, PT);
}

// X3 = EF, Y3 = GH, Z3 = FG, T3 = EH: the common tail of add and double.
// T3 is skipped when `withT` is false (a doubling never reads T).
// @ts-ignore: decorator
@inline function finish(r: usize, withT: bool = true): void {
  feMul(X(r), E, F);
  feMul(Y(r), G, H);
  feMul(Z(r), F, G);
  if (withT) feMul(T(r), E, H);
}

/**
 * r = 2p ("dbl-2008-hwcd", a = -1). r may be p. With `withT` false, T of r is
 * left stale: fine when only doublings or an encode follow, since neither reads T
 * (saves one of 8 multiplies in a run of doublings).
 */
export function ptDouble(r: usize, p: usize, withT: bool = true): void {
  feSq(A, X(p));
  feSq(B, Y(p));
  feSq(C, Z(p));
  feAdd(C, C, C); //          2Z^2
  feAdd(H, X(p), Y(p));
  feSq(E, H); //              (X+Y)^2
  feAdd(H, A, B); //          A + B
  feSub(E, E, H); //          E = (X+Y)^2 - A - B = 2XY
  feSub(G, B, A); //          G = B - A  (a*A + B with a = -1)
  feSub(F, G, C); //          F = G - C
  feNeg(H, H); //             H = -A - B
  finish(r, withT);
}

/**
 * r = p + q, or p - q when `negate`, with q a Niels entry ("add-2008-hwcd-3",
 * Z2 = 1). -q = (-x, y) swaps y+x with y-x and negates 2dxy. r may be p.
 */
export function ptAddNiels(r: usize, p: usize, q: usize, negate: bool): void {
  const qp = negate ? q + FE : q;
  const qm = negate ? q : q + FE;
  feSub(A, Y(p), X(p));
  feMul(A, A, qm); //         (Y1-X1)(y2-x2)
  feAdd(B, Y(p), X(p));
  feMul(B, B, qp); //         (Y1+X1)(y2+x2)
  feMul(C, T(p), q + 2 * FE); // T1 * 2d x2 y2
  feAdd(D, Z(p), Z(p));
  feSub(E, B, A);
  feAdd(H, B, A);
  if (negate) {
    feAdd(F, D, C);
    feSub(G, D, C);
  } else {
    feSub(F, D, C);
    feAdd(G, D, C);
  }
  finish(r);
}

/** r = p + q, both extended (used to build tables, not on the verify path). r may be p or q. */
export function ptAdd(r: usize, p: usize, q: usize): void {
  feSub(A, Y(p), X(p));
  feSub(F, Y(q), X(q));
  feMul(A, A, F);
  feAdd(B, Y(p), X(p));
  feAdd(F, Y(q), X(q));
  feMul(B, B, F);
  feMul(C, T(p), T(q));
  feMul(C, C, FE_D2);
  feMul(D, Z(p), Z(q));
  feAdd(D, D, D);
  feSub(E, B, A);
  feSub(F, D, C);
  feAdd(G, D, C);
  feAdd(H, B, A);
  finish(r);
}

/** Cached point: Y+X, Y-X, 2Z, 2dT, for a point that is added many times. */
export const CACHED: usize = 4 * FE;

/** c = cached form of the extended point p (one multiply). */
export function ptToCached(c: usize, p: usize): void {
  feAdd(c, Y(p), X(p));
  feSub(c + FE, Y(p), X(p));
  feAdd(c + 2 * FE, Z(p), Z(p));
  feMul(c + 3 * FE, T(p), FE_D2);
}

/**
 * r = p + q, or p - q when `negate`, with q cached ("add-2008-hwcd-3": 8 multiplies).
 * -q = (-X, Y, Z, -T) swaps Y+X with Y-X and negates 2dT. r may be p.
 */
export function ptAddCached(r: usize, p: usize, q: usize, negate: bool): void {
  const qp = negate ? q + FE : q;
  const qm = negate ? q : q + FE;
  feSub(A, Y(p), X(p));
  feMul(A, A, qm); //         (Y1-X1)(Y2-X2)
  feAdd(B, Y(p), X(p));
  feMul(B, B, qp); //         (Y1+X1)(Y2+X2)
  feMul(C, T(p), q + 3 * FE); // T1 * 2d T2
  feMul(D, Z(p), q + 2 * FE); //  Z1 * 2 Z2
  feSub(E, B, A);
  feAdd(H, B, A);
  if (negate) {
    feAdd(F, D, C);
    feSub(G, D, C);
  } else {
    feSub(F, D, C);
    feAdd(G, D, C);
  }
  finish(r);
}

/** r = -p. */
export function ptNeg(r: usize, p: usize): void {
  feNeg(X(r), X(p));
  feCopy(Y(r), Y(p));
  feCopy(Z(r), Z(p));
  feNeg(T(r), T(p));
}

/** Niels entry from affine x, y. */
export function nielsFromAffine(n: usize, x: usize, y: usize): void {
  feAdd(n, y, x);
  feSub(n + FE, y, x);
  feMul(n + 2 * FE, x, y);
  feMul(n + 2 * FE, n + 2 * FE, FE_D2);
}

const ONE: usize = memory.data<i32>([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const U: usize = memory.data(40, 8);
const V: usize = memory.data(40, 8);
const W: usize = memory.data(40, 8);
const XX: usize = memory.data(40, 8);

/**
 * Decode a point (RFC 8032 §5.1.3), strictly: y must be canonical (< p), x must
 * exist, and x = 0 with the sign bit set is refused. Returns false on any failure.
 */
export function ptDecode(p: usize, s: usize): bool {
  const y = Y(p);
  const x = X(p);
  if (!feFromBytes(y, s)) return false;
  const sign = (load<u8>(s, 31) >> 7) != 0;
  // u = y^2 - 1, v = d y^2 + 1; x = u v^3 (u v^7)^((p-5)/8)
  feSq(U, y);
  feMul(V, U, FE_D);
  feSub(U, U, ONE);
  feAdd(V, V, ONE);
  feSq(W, V);
  feMul(W, W, V); //             v^3
  feMul(x, W, U); //             u v^3
  feSq(W, W);
  feMul(W, W, V); //             v^7
  feMul(W, W, U); //             u v^7
  fePow22523(W, W);
  feMul(x, x, W);
  // v x^2 = u: x is a root; v x^2 = -u: x * sqrt(-1) is; else no square root.
  feSq(XX, x);
  feMul(XX, XX, V);
  feSub(W, XX, U);
  if (!feIsZero(W)) {
    feAdd(W, XX, U);
    if (!feIsZero(W)) return false;
    feMul(x, x, FE_SQRTM1);
  }
  if (feIsZero(x)) {
    if (sign) return false; // §5.1.3 step 4: x = 0 with x_0 = 1 is not canonical
  } else if (feIsNegative(x) != sign) {
    feNeg(x, x);
  }
  feOne(Z(p));
  feMul(T(p), x, y);
  return true;
}

const ZI: usize = memory.data(40, 8);

/** Encode p (RFC 8032 §5.1.2): y with the parity of x in bit 255. */
export function ptEncode(s: usize, p: usize): void {
  feInvert(ZI, Z(p));
  feMul(XX, X(p), ZI);
  feMul(W, Y(p), ZI);
  feToBytes(s, W);
  if (feIsNegative(XX)) store<u8>(s, load<u8>(s, 31) | 0x80, 31);
}

const P8: usize = memory.data(4 * 40, 8);

/** True when [8]p is the identity, i.e. p lies in the small-order subgroup. */
export function ptIsSmallOrder(p: usize): bool {
  ptDouble(P8, p);
  ptDouble(P8, P8);
  ptDouble(P8, P8);
  if (!feIsZero(X(P8))) return false;
  feSub(W, Y(P8), Z(P8));
  return feIsZero(W);
}
