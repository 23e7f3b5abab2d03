// What the per-algorithm tables (algorithms.ts, stages.ts) do not cover: the verify
// cache hit with a fresh copy of the token string (edgejwt against fast-jwt's
// cache), and decode-only (decodeUnverified against jose and fast-jwt), on the
// realistic HS256 token of the other benches.
// Run: npm run build && node bench/verify/verify.ts   (BENCH_SMOKE=1 for a seconds-long pass)
import { createHmac } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { loadavg } from 'node:os';
import * as jose from 'jose';
import { createVerifier as fastJwtVerifier, createDecoder as fastJwtDecoder } from 'fast-jwt';
import { createVerifier, decodeUnverified } from '../../dist/index.js';
import { compare, printTable, formatNs, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { PAYLOAD } from '../lib/signing-input.ts';

const env = environment(['jose', 'fast-jwt']);
// A shared machine's load skews medians: print it with the environment.
env.loadavg = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
printEnvironment(env);

const b64u = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const secret = 'k'.repeat(32);
const signingInput =
  `${b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'k1' }))}.` + `${b64u(JSON.stringify(PAYLOAD))}`;
const token = `${signingInput}.${b64u(createHmac('sha256', secret).update(signingInput).digest())}`;

const smoke = process.env.BENCH_SMOKE === '1';
const results: Record<string, unknown> = { env };
const verdicts: string[] = [];
const byName = (samples: Sample[], name: string) => samples.find((s) => s.name === name)!;

const oursCached = createVerifier({ algorithms: ['HS256'], key: new TextEncoder().encode(secret) });
const fjCached = fastJwtVerifier({ key: secret, algorithms: ['HS256'], cache: true });
oursCached.verifySync(token);
fjCached(token);

const fresh = () => (' ' + token).slice(1);
const hits = compare([
  { name: 'edgejwt cache hit (fresh string)', fn: () => oursCached.verifySync(fresh()) },
  { name: 'fast-jwt cache hit (fresh string)', fn: () => fjCached(fresh()) },
  { name: 'fresh string alone', fn: fresh },
]);
printTable('HS256: verify cache hit, a fresh copy of the token each time', hits, 'edgejwt cache hit (fresh string)');
results['cache-hit'] = hits;
const hit = byName(hits, 'edgejwt cache hit (fresh string)');
verdicts.push(
  `cache hit: ${Math.round(hit.opsPerSec).toLocaleString('en-US')}/s, ${formatNs(hit.medianNs)} (target >= ` +
    `3,000,000/s)`,
);

const decoder = fastJwtDecoder();
const dec = compare([
  { name: 'edgejwt decodeUnverified', fn: () => decodeUnverified(token) },
  { name: 'jose decodeJwt', fn: () => jose.decodeJwt(token) },
  { name: 'fast-jwt decoder', fn: () => decoder(token) },
]);
printTable('Decode only (no verification)', dec, 'edgejwt decodeUnverified');
results.decode = dec;
verdicts.push(
  `decode-only vs jose decodeJwt: ` +
    `${(byName(dec, 'jose decodeJwt').medianNs / byName(dec, 'edgejwt decodeUnverified').medianNs).toFixed(2)}x ` +
    `faster (target > 1)`,
);

console.log('\n### Targets (ratios from this run)\n');
for (const v of verdicts) console.log(`- ${v}`);
results.verdicts = verdicts;
console.log(`\nwrote ${writeResults('verify-node', results)}`); // smoke runs write to results/smoke/
