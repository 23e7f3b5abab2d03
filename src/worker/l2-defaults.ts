// The algorithms `cache.verify: true` sends to the KV verify cache. A module of its
// own, with no imports, so that bench/summary.ts can read it straight from the
// source under Node's type stripping (no build needed for `npm run gen`).

/**
 * Which algorithms `cache.verify: true` sends to KV, chosen by measurement (docs/deploy.md):
 * a KV read costs milliseconds of wall time and L2's own CPU (hash, unseal, parse) about
 * 55 µs in workerd, so only verifies that cost several times that in CPU gain anything:
 * ECDSA (~250 µs for ES256). HS*, EdDSA and 2048-bit RSA verify about as fast as L2
 * itself runs. Unset or false: L2 is off.
 *
 * @example
 * L2_DEFAULT_ALGORITHMS.includes('ES256'); // true
 */
export const L2_DEFAULT_ALGORITHMS: readonly string[] = ['ES256', 'ES384', 'ES512'];
