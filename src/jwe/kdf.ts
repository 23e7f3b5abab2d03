// The Concat KDF of NIST SP 800-56A as JWA uses it for ECDH-ES (RFC 7518 §4.6.2),
// over SHA-256 in the Wasm core: Hash(counter || Z || OtherInfo) per 256-bit round.

import { getCore } from '../wasm/instance.js';
import { coreHash } from '../wasm/core-hash.js';

function u32(n: number): Uint8Array {
  return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
}

function lengthPrefixed(data: Uint8Array): Uint8Array[] {
  return [u32(data.length), data];
}

/**
 * `keyBytes` bytes of key for `algorithmId` (the `enc` for ECDH-ES, else the `alg`),
 * from the shared secret `z` and the decoded `apu`/`apv` (empty when absent).
 */
export function concatKdf(
  z: Uint8Array,
  algorithmId: string,
  apu: Uint8Array,
  apv: Uint8Array,
  keyBytes: number,
): Uint8Array {
  const other = [
    ...lengthPrefixed(new TextEncoder().encode(algorithmId)),
    ...lengthPrefixed(apu),
    ...lengthPrefixed(apv),
    u32(keyBytes * 8),
  ];
  const rounds = Math.ceil(keyBytes / 32);
  const out = new Uint8Array(rounds * 32);
  for (let i = 0; i < rounds; i++) {
    const parts = [u32(i + 1), z, ...other];
    const input = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      input.set(p, o);
      o += p.length;
    }
    const core = getCore();
    out.set(coreHash(core, 'SHA-256', input), i * 32);
    // Z went through the core's INPUT and the key through OUT: leave neither behind.
    core.exports.input_wipe(input.length);
    coreHash(core, 'SHA-256', new Uint8Array(0));
    input.fill(0);
  }
  const key = out.slice(0, keyBytes);
  out.fill(0);
  return key;
}
