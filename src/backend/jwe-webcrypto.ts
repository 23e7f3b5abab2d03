// JWE content encryption through crypto.subtle, in every runtime.

import type { JweBackend } from './jwe-types.js';

async function gcm(key: Uint8Array | CryptoKey, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  return key instanceof Uint8Array
    ? crypto.subtle.importKey('raw', key as BufferSource, 'AES-GCM', false, [usage])
    : key;
}

export const jweBackend: JweBackend = {
  name: 'webcrypto',
  gcmDecrypt(key, iv, aad, ciphertext, tag) {
    const joined = new Uint8Array(ciphertext.length + tag.length);
    joined.set(ciphertext, 0);
    joined.set(tag, ciphertext.length);
    const params = { name: 'AES-GCM', iv: iv as BufferSource, additionalData: aad as BufferSource, tagLength: 128 };
    const open = (k: CryptoKey): Promise<Uint8Array> =>
      crypto.subtle.decrypt(params, k, joined).then((plain) => new Uint8Array(plain));
    // An imported key (the `dir` case, every call after the first) goes straight to the cipher.
    return key instanceof Uint8Array ? gcm(key, 'decrypt').then(open) : open(key);
  },
  async gcmEncrypt(key, iv, aad, plaintext) {
    const params = { name: 'AES-GCM', iv: iv as BufferSource, additionalData: aad as BufferSource, tagLength: 128 };
    const out = new Uint8Array(
      await crypto.subtle.encrypt(params, await gcm(key, 'encrypt'), plaintext as BufferSource),
    );
    return { ciphertext: out.slice(0, out.length - 16), tag: out.slice(out.length - 16) };
  },
  async cbcDecrypt(key, iv, ciphertext) {
    const k = await crypto.subtle.importKey('raw', key as BufferSource, 'AES-CBC', false, ['decrypt']);
    return new Uint8Array(
      await crypto.subtle.decrypt({ name: 'AES-CBC', iv: iv as BufferSource }, k, ciphertext as BufferSource),
    );
  },
  async cbcEncrypt(key, iv, plaintext) {
    const k = await crypto.subtle.importKey('raw', key as BufferSource, 'AES-CBC', false, ['encrypt']);
    return new Uint8Array(
      await crypto.subtle.encrypt({ name: 'AES-CBC', iv: iv as BufferSource }, k, plaintext as BufferSource),
    );
  },
  gcmKey(key) {
    return crypto.subtle.importKey('raw', key as BufferSource, 'AES-GCM', false, ['decrypt']);
  },
};
