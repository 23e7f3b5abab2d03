// BigInt reference arithmetic for Ed25519 (RFC 8032 §5.1), shared by the
// generators of constant tables and as-pect expectations. Slow and obvious on
// purpose: it is the yardstick the Wasm code is checked against.

export const P = 2n ** 255n - 19n;
export const L = 2n ** 252n + 27742317777372353535851937790883648493n;

export const mod = (a, m = P) => ((a % m) + m) % m;

export function pow(b, e, m = P) {
  let r = 1n;
  b = mod(b, m);
  for (; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
}

export const inv = (a) => pow(a, P - 2n);
export const D = mod(-121665n * inv(121666n));
export const SQRTM1 = pow(2n, (P - 1n) / 4n);

/** Affine twisted Edwards addition with a = -1 (RFC 8032 §5.1.4). */
export function add([x1, y1], [x2, y2]) {
  const t = mod(D * x1 * x2 * y1 * y2);
  return [mod((x1 * y2 + x2 * y1) * inv(1n + t)), mod((y1 * y2 + x1 * x2) * inv(1n - t))];
}
