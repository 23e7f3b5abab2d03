// Cases run inside workerd: edgejwt's Wasm HMAC verify vs crypto.subtle.verify
// (BoringSSL there), same 654-byte input and key.
import { importHmacKey } from '../../../src/wasm/keys.ts';
import { WasmHandle } from '../../../src/signature.ts';
import type { WorkerCase } from '../../lib/workerd.ts';
import { signingInput } from '../../lib/signing-input.ts';

export default async function setup(): Promise<WorkerCase[]> {
  const cases: WorkerCase[] = [];
  for (const [alg, hash, size] of [
    ['HS256', 'SHA-256', 32],
    ['HS512', 'SHA-512', 64],
  ] as const) {
    const secret = new Uint8Array(size).map((_, i) => (i * 7 + 3) & 0xff);
    const input = signingInput();
    const inputBytes = new TextEncoder().encode(input);
    const subtleKey = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash }, false, ['sign', 'verify']);
    const tag = new Uint8Array(await crypto.subtle.sign('HMAC', subtleKey, inputBytes));
    const ours = new WasmHandle(importHmacKey(secret, alg));
    const signed = { message: input, signature: tag };
    if (!ours.verify(signed)) throw new Error('edgejwt rejected the reference tag');
    cases.push({ name: `${alg} edgejwt (Wasm)`, fn: () => ours.verify(signed) });
    cases.push({
      name: `${alg} crypto.subtle.verify`,
      fn: () => crypto.subtle.verify('HMAC', subtleKey, tag, inputBytes),
      async: true,
    });
  }
  return cases;
}
