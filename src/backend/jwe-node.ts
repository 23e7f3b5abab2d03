/// <reference types="node" />
// JWE content encryption through node:crypto's synchronous ciphers (the `node` condition).

import { Buffer } from 'node:buffer';
import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { JweBackend } from './jwe-types.js';

function bytes(key: Uint8Array | CryptoKey): Uint8Array {
  if (!(key instanceof Uint8Array)) throw new TypeError('the node JWE backend takes raw key bytes');
  return key;
}

function gcmName(key: Uint8Array): 'aes-128-gcm' | 'aes-256-gcm' {
  if (key.length === 16) return 'aes-128-gcm';
  if (key.length === 32) return 'aes-256-gcm';
  throw new TypeError('AES-GCM key must be 16 or 32 bytes');
}

function cbcName(key: Uint8Array): 'aes-128-cbc' | 'aes-256-cbc' {
  if (key.length === 16) return 'aes-128-cbc';
  if (key.length === 32) return 'aes-256-cbc';
  throw new TypeError('AES-CBC key must be 16 or 32 bytes');
}

/** Remove PKCS#7 padding (RFC 5652 §6.3), or throw if it is not exactly right. */
function unpad(block: Uint8Array): Uint8Array {
  const n = block.length;
  const pad = n === 0 ? 0 : block[n - 1]!;
  if (n === 0 || n % 16 !== 0 || pad === 0 || pad > 16) throw new TypeError('bad padding');
  let bad = 0;
  for (let i = n - pad; i < n; i++) bad |= block[i]! ^ pad;
  if (bad !== 0) throw new TypeError('bad padding');
  return block.subarray(0, n - pad);
}

export const jweBackend: JweBackend = {
  name: 'node',
  gcmDecrypt(key, iv, aad, ciphertext, tag) {
    const k = bytes(key);
    if (tag.length !== 16) throw new TypeError('tag must be 16 bytes');
    const d = createDecipheriv(gcmName(k), k, iv, { authTagLength: 16 });
    d.setAAD(aad);
    d.setAuthTag(tag);
    const head = d.update(ciphertext);
    // final() throws when the tag does not match: nothing decrypted is returned then.
    const tail = d.final();
    return tail.length === 0 ? head : Buffer.concat([head, tail]);
  },
  gcmEncrypt(key, iv, aad, plaintext) {
    const k = bytes(key);
    const c = createCipheriv(gcmName(k), k, iv, { authTagLength: 16 });
    c.setAAD(aad);
    const ciphertext = Buffer.concat([c.update(plaintext), c.final()]);
    return { ciphertext, tag: c.getAuthTag() };
  },
  cbcDecrypt(key, iv, ciphertext) {
    const d = createDecipheriv(cbcName(key), key, iv);
    // The padding is checked here, not by the cipher: some node:crypto implementations
    // (Deno's) skip the check, and every runtime must give the same answer.
    d.setAutoPadding(false);
    const out = Buffer.concat([d.update(ciphertext), d.final()]);
    return unpad(out);
  },
  cbcEncrypt(key, iv, plaintext) {
    const c = createCipheriv(cbcName(key), key, iv);
    return Buffer.concat([c.update(plaintext), c.final()]);
  },
  gcmKey(key) {
    return key;
  },
};
