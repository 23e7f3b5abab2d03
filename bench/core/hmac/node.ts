// HMAC verify of a 654-byte JWT signing input with a key imported once:
// edgejwt's Wasm core vs node:crypto, WebCrypto and @noble/hashes, in one run.
// Run: npm run build && node bench/core/hmac/node.ts   (BENCH_SMOKE=1 for a quick pass)
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { importHmacKey } from '../../../dist/wasm/keys.js';
import { WasmHandle } from '../../../dist/signature.js';
import { compare, compareAsync, printTable, speedup, type Sample } from '../../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../../lib/env.ts';
import { signingInput } from '../../lib/signing-input.ts';

const env = environment(['@noble/hashes']);
printEnvironment(env);
const wasm = readFileSync(new URL('../../../dist/wasm/generated/core.wasm', import.meta.url));
console.log(`core.wasm: ${wasm.length} B raw, ${gzipSync(wasm, { level: 9 }).length} B gzip`);

const results: Record<string, Sample[]> = {};
for (const [alg, nodeHash, noble, size] of [
  ['HS256', 'sha256', sha256, 32],
  ['HS512', 'sha512', sha512, 64],
] as const) {
  const secret = new Uint8Array(size).map((_, i) => (i * 7 + 3) & 0xff);
  const input = signingInput();
  const inputBytes = new TextEncoder().encode(input);
  const tag = createHmac(nodeHash, secret).update(input).digest();
  const tagBytes = new Uint8Array(tag);

  const ours = new WasmHandle(importHmacKey(secret, alg));
  const signed = { message: input, signature: tagBytes };
  const nodeKey = createSecretKey(secret);
  const nobleBase = hmac.create(noble, secret);
  const subtleKey = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: `SHA-${size * 8}` }, false, [
    'verify',
  ]);

  const sync = compare([
    { name: 'edgejwt (Wasm)', fn: () => ours.verify(signed) },
    {
      name: 'node:crypto createHmac + timingSafeEqual',
      fn: () => timingSafeEqual(createHmac(nodeHash, nodeKey).update(input).digest(), tag),
    },
    {
      name: '@noble/hashes hmac (key state cloned)',
      fn: () => {
        const h = nobleBase.clone();
        h.update(inputBytes);
        const d = h.digest();
        let diff = 0;
        for (let i = 0; i < d.length; i++) diff |= d[i]! ^ tagBytes[i]!;
        return diff === 0;
      },
    },
  ]);
  const [subtle] = await compareAsync([
    { name: 'crypto.subtle.verify', fn: () => crypto.subtle.verify('HMAC', subtleKey, tagBytes, inputBytes) },
  ]);
  const rows = [...sync, subtle!];
  for (const s of rows) if (!Number.isFinite(s.medianNs)) throw new Error(`no timing for ${s.name}`);
  printTable(
    `${alg} verify, ${inputBytes.length}-byte signing input (Node ${process.version})`,
    rows,
    'edgejwt (Wasm)',
  );
  console.log(
    `edgejwt vs node:crypto: ${speedup(rows[0]!, rows[1]!).toFixed(2)}x faster (target: ≥ 0.83x, i.e. at most ` +
      `1.2x slower)`,
  );
  results[alg] = rows;
}
console.log(`results: ${writeResults('hmac-node', { env, wasmBytes: wasm.length, results })}`);
