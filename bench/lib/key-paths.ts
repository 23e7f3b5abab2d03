// How each library in the per-algorithm tables is handed its key. Every peer runs
// its fastest documented path: the key is turned into the library's own key object
// once, before timing, never per call. Written into the results JSON and printed
// under each table by bench/summary.ts, so a reader can check the comparison.

export const KEY_PATHS: Record<string, string> = {
  edgejwt: 'secret bytes or public JWK given once to `createVerifier` (imported on first use, kept)',
  jose: '`CryptoKey` imported once (`crypto.subtle.importKey`)',
  'hono/jwt': '`CryptoKey` imported once',
  '@tsndr/cloudflare-worker-jwt': '`CryptoKey` imported once',
  'fast-jwt': 'secret string or PEM given once to `createVerifier` (it makes a `KeyObject` once)',
  jsonwebtoken: '`KeyObject` made once (`createSecretKey` / `createPublicKey`)',
  'node:crypto (bare)': '`KeyObject` made once',
  'crypto.subtle (bare)': '`CryptoKey` imported once',
  'RustCrypto hmac': 'Rust Wasm peer (wasm-bindgen): HMAC pads absorbed once in its constructor',
  'ed25519-dalek': 'Rust Wasm peer (wasm-bindgen): `VerifyingKey` decompressed once in its constructor',
  'ed25519-compact': 'Rust Wasm peer (wasm-bindgen): `PublicKey` parsed once in its constructor',
};

/** The key paths of the libraries that appear in `names` (row names of one table). */
export function keyPathsFor(names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [lib, path] of Object.entries(KEY_PATHS)) {
    if (names.some((n) => n === lib || n.startsWith(`${lib} `))) out[lib] = path;
  }
  return out;
}
