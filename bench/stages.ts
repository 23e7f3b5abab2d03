// Stage breakdown for every algorithm variant in Node, with the library's own
// internals on the same token: split, header, signature and payload base64url,
// key lookup, the signature check, payload UTF-8 + JSON, claims, and the whole
// verifySync for reference. (bench/verify.ts does HS256, EdDSA and RS256 the
// same way; this covers the rest of the table.)
// Run: npm run build && node bench/stages.ts   (BENCH_SMOKE=1: seconds)
import { createVerifier } from '../dist/index.js';
import { algSpec } from '../dist/algorithms.js';
import { split } from '../dist/jws.js';
import { parseHeader } from '../dist/header.js';
import { decodeSegment } from '../dist/b64.js';
import { decodeBase64Url } from '../dist/platform/node.js';
import { parsePayload } from '../dist/payload.js';
import { checkClaims } from '../dist/claims.js';
import { claimPolicy } from '../dist/options.js';
import { KeyEntry } from '../dist/keys/entry.js';
import { verifyHmac, verifyEd25519 } from '../dist/wasm/keys.js';
import { backend } from '../dist/backend/node.js';
import { compare, formatTable, smoke, type Sample } from './lib/harness.ts';
import { environment, printEnvironment, writeResults } from './lib/env.ts';
import { material, benchVariants } from './lib/material.ts';
import { progress } from './lib/progress.ts';

const env = environment();
printEnvironment(env);
const results: Record<string, Sample[]> = {};
const tables: string[] = [];
const variants = benchVariants(smoke);
const step = progress('stages', variants.length);
for (const v of variants) {
  step(v.label);
  const m = await material(v);
  const key = (m.secret ?? m.jwk) as never;
  const ours = createVerifier({ algorithms: [v.alg], key, cache: false });
  await ours.verify(m.token);
  const t = m.token;
  const seg = split(t, 16384);
  const spec = algSpec(v.alg)!;
  const entry = KeyEntry.from(key);
  const handle = entry.handle(spec) as unknown as { wasm: never; key: never };
  const sig = decodeSegment(t, seg.p + 1, t.length)!;
  const bytes = decodeBase64Url(t.slice(seg.h + 1, seg.p))!;
  const payload = parsePayload(bytes);
  const policy = claimPolicy({});
  const ph = parseHeader(t, seg.h);
  const input = t.slice(0, seg.p);
  const check = v.alg.startsWith('HS')
    ? () => verifyHmac(handle.wasm, input, sig)
    : v.alg === 'EdDSA'
      ? () => verifyEd25519(handle.wasm, input, sig)
      : () => backend.verify(spec, handle.key, input, sig);
  const rows = compare([
    { name: 'split + bound', fn: () => split(t, 16384) },
    { name: 'header (parsed once, then cached)', fn: () => parseHeader(t, seg.h) },
    { name: 'signature base64url', fn: () => decodeSegment(t, seg.p + 1, t.length) },
    { name: 'payload base64url', fn: () => decodeBase64Url(t.slice(seg.h + 1, seg.p)) },
    { name: 'key lookup (imported once)', fn: () => entry.handle(spec) },
    { name: 'signature check', fn: check },
    { name: 'payload UTF-8 + JSON.parse', fn: () => parsePayload(bytes) },
    { name: 'claims', fn: () => checkClaims(payload, ph.header, policy, 1_800_000_000) },
    { name: 'full verifySync', fn: () => ours.verifySync(t) },
  ]);
  results[v.label] = rows;
  tables.push(formatTable(`${v.label}: stage breakdown (Node)`, rows, 'full verifySync'));
}
step.done();
console.log('\n' + tables.join('\n\n') + '\n');
console.log('Stages are timed alone, so they need not add up to the full verify exactly (call overhead, caches warm).');
console.log(`wrote ${writeResults('stages-node', { env, variants: results })}`);
