// The content-encryption primitives under a JWE, behind #crypto-backend: WebCrypto
// everywhere, node:crypto's synchronous ciphers under the `node` condition (Node's
// WebCrypto runs on a thread pool and costs 100+ µs per call where the cipher is ~5 µs).
// Both throw on any failure; the JWE layer turns that into its own error code.

export interface JweBackend {
  readonly name: 'webcrypto' | 'node';
  /** AES-GCM with a 128-bit tag; `key` is raw bytes, or a CryptoKey the webcrypto backend imported earlier. */
  gcmDecrypt(
    key: Uint8Array | CryptoKey,
    iv: Uint8Array,
    aad: Uint8Array,
    ciphertext: Uint8Array,
    tag: Uint8Array,
  ): Uint8Array | Promise<Uint8Array>;
  gcmEncrypt(
    key: Uint8Array | CryptoKey,
    iv: Uint8Array,
    aad: Uint8Array,
    plaintext: Uint8Array,
  ): { ciphertext: Uint8Array; tag: Uint8Array } | Promise<{ ciphertext: Uint8Array; tag: Uint8Array }>;
  /** AES-CBC, PKCS#7 padding removed (and checked). */
  cbcDecrypt(key: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array | Promise<Uint8Array>;
  cbcEncrypt(key: Uint8Array, iv: Uint8Array, plaintext: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Import a reusable AES-GCM key (webcrypto) or keep the bytes (node). */
  gcmKey(key: Uint8Array): Uint8Array | Promise<CryptoKey>;
}
