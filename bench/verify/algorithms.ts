// The per-algorithm table in Node: full verify of the same realistic token for
// every supported variant (HS*, EdDSA, RS* at 2048/3072/4096 bits, PS* at 2048, ES*),
// edgejwt (sync and async, its cache off) against every peer, with the bare
// primitives (node:crypto, crypto.subtle; for HS256 and EdDSA also the Rust wasm-bindgen
// peer, bench/peers/) as the floor. Sync and async candidates
// are timed in separate interleaved groups; ratios are to edgejwt verifySync. Ends
// with the speed targets as ratios from this table, and the "floor" (decode +
// JSON.parse + primitive, what no verifier can skip) for RS256 and ES256.
// Run: npm run build && node bench/verify/algorithms.ts   (BENCH_SMOKE=1: seconds)
import {
  createHmac,
  createPublicKey,
  createSecretKey,
  timingSafeEqual,
  verify as nodeVerify,
  constants,
} from 'node:crypto';
import { createVerifier as fastJwtVerifier } from 'fast-jwt';
// @ts-ignore -- jsonwebtoken ships no types
import jsonwebtoken from 'jsonwebtoken';
import { createVerifier } from '../../dist/index.js';
import { compare, compareAsync, formatTable, smoke, type Case, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writePartialResults, writeResults } from '../lib/env.ts';
import { material, benchVariants, type Material } from '../lib/material.ts';
import { webPeers } from '../lib/web-peers.ts';
import { progress } from '../lib/progress.ts';
import { keyPathsFor } from '../lib/key-paths.ts';
import { loadRustPeer } from '../peers/rust.ts';
import { rustCases } from '../peers/rust-cases.ts';

const NODE_HASH: Record<string, string> = { '256': 'sha256', '384': 'sha384', '512': 'sha512' };

function bareNode(m: Material): () => boolean {
  const check = bareCheck(m);
  const input = Buffer.from(m.input);
  const sig = Buffer.from(m.sig);
  return () => check(input, sig);
}

/** node:crypto's verify for `m`'s key and algorithm (HMAC: compute + timingSafeEqual). */
function bareCheck(m: Material): (input: Buffer, sig: Buffer) => boolean {
  const { alg } = m.variant;
  const hash = alg === 'EdDSA' ? null : NODE_HASH[alg.slice(2)]!;
  if (m.secret !== undefined) {
    const key = createSecretKey(m.secret);
    return (input, sig) => timingSafeEqual(createHmac(hash!, key).update(input).digest(), sig);
  }
  const pub = createPublicKey({ key: m.jwk as never, format: 'jwk' });
  const key = alg.startsWith('ES')
    ? { key: pub, dsaEncoding: 'ieee-p1363' as const }
    : alg.startsWith('PS')
      ? { key: pub, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 }
      : pub;
  return (input, sig) => nodeVerify(hash, input, key, sig);
}

async function warmUp(sync: Case[], async: { fn: () => Promise<unknown> }[]): Promise<void> {
  const ms = smoke ? 10 : 150;
  for (const c of sync) for (const until = performance.now() + ms; performance.now() < until;) c.fn();
  for (const c of async) for (const until = performance.now() + ms; performance.now() < until;) await c.fn();
}

/**
 * The least any JWT verifier does beyond the primitive: the signing input and the
 * signature decoded, the payload decoded and parsed; no check at all. Its ratio to
 * the bare primitive is the floor the "within 1.2x" target sits on.
 */
function minimalPipeline(m: Material): () => boolean {
  const t = m.token;
  const h = t.indexOf('.');
  const p = t.lastIndexOf('.');
  const check = bareCheck(m);
  return () => {
    const payload = JSON.parse(Buffer.from(t.slice(h + 1, p), 'base64url').toString('utf8')) as object;
    return check(Buffer.from(t.slice(0, p), 'latin1'), Buffer.from(t.slice(p + 1), 'base64url')) && payload !== null;
  };
}

const env = environment(['jose', 'fast-jwt', 'jsonwebtoken', '@tsndr/cloudflare-worker-jwt', 'hono']);
printEnvironment(env);
const results: Record<string, Sample[]> = {};
const floors: Record<string, Sample[]> = {};
const tables: string[] = [];
// BENCH_ALGS=HS256,EdDSA: only those rows (a partial run never replaces the published figures).
const only = process.env.BENCH_ALGS?.split(',');
const variants = benchVariants(smoke).filter((v) => only === undefined || only.includes(v.label));
// Built here the first time (minutes); null when it cannot be, or in a smoke run that finds it unbuilt.
const rust = await loadRustPeer();
const step = progress('node table', variants.length);

for (const v of variants) {
  step(v.label);
  const m = await material(v);
  const { alg } = v;
  const ourKey = m.secret ?? (m.jwk as never);
  const ours = createVerifier({ algorithms: [alg], key: ourKey, cache: false });
  await ours.verify(m.token); // first use imports the key
  ours.verifySync(m.token);

  const pem = m.jwk && createPublicKey({ key: m.jwk as never, format: 'jwk' });
  const fjKey = m.secretText ?? (pem!.export({ format: 'pem', type: 'spki' }) as string);
  const fj = fastJwtVerifier({ key: fjKey, algorithms: [alg as never], cache: false });
  const fjCached = fastJwtVerifier({ key: fjKey, algorithms: [alg as never], cache: true });
  fj(m.token);
  fjCached(m.token);
  const bare = bareNode(m);
  if (!bare()) throw new Error(`node:crypto rejected ${v.label}`);

  const syncCases: Case[] = [
    { name: 'edgejwt verifySync', fn: () => ours.verifySync(m.token) },
    { name: 'fast-jwt', fn: () => fj(m.token) },
    { name: 'fast-jwt (cache hit)', fn: () => fjCached(m.token) },
  ];
  // jsonwebtoken has no EdDSA.
  if (alg !== 'EdDSA') {
    // A KeyObject made once: given a string, jsonwebtoken calls createSecretKey on every verify.
    const jwtKey = m.secret !== undefined ? createSecretKey(m.secret) : pem!;
    jsonwebtoken.verify(m.token, jwtKey, { algorithms: [alg] });
    syncCases.push({ name: 'jsonwebtoken', fn: () => jsonwebtoken.verify(m.token, jwtKey, { algorithms: [alg] }) });
  }
  syncCases.push({ name: 'node:crypto (bare)', fn: bare });
  if (rust) syncCases.push(...rustCases(rust, m));
  const asyncCases = [{ name: 'edgejwt verify (async)', fn: () => ours.verify(m.token) }, ...(await webPeers(m))];
  // Calibration alone is too short for every JIT tier: without this the first
  // variant measured (HS256) ran about 2x slow.
  await warmUp(syncCases, asyncCases);
  const sync = compare(syncCases);
  const asyncRows = await compareAsync(asyncCases);
  const rows = [...sync, ...asyncRows];
  results[v.label] = rows;
  tables.push(
    formatTable(`${v.label}: full verify in Node (${m.token.length}-char token)`, rows, 'edgejwt verifySync'),
  );
  if (v.label === 'RS256-2048' || v.label === 'ES256') {
    // Kept apart from the table above (not a library): what no verifier can skip, beside the bare primitive.
    floors[v.label] = compare([
      { name: 'floor: decode + JSON.parse + primitive', fn: minimalPipeline(m) },
      { name: 'node:crypto (bare)', fn: bare },
    ]);
  }
}

/** The targets, as ratios from this run's table (median; p25 beside it, steadier on a shared machine). */
function targets(): string[] {
  const out: string[] = [];
  const row = (label: string, name: string) => results[label]?.find((r) => r.name === name);
  const ratio = (label: string, name: string) => {
    const peer = row(label, name);
    const me = row(label, 'edgejwt verifySync');
    return peer && me
      ? `${(peer.medianNs / me.medianNs).toFixed(2)}x (p25: ${(peer.p25Ns / me.p25Ns).toFixed(2)}x)`
      : 'not run';
  };
  out.push(`HS256 vs fast-jwt uncached: ${ratio('HS256', 'fast-jwt')} faster (target >= 1.8)`);
  out.push(`HS256 vs jose: ${ratio('HS256', 'jose')} faster (target >= 10)`);
  const ed = results.EdDSA?.filter(
    (r) => !r.name.startsWith('edgejwt') && !r.name.includes('bare') && !r.name.includes('cache hit'),
  );
  if (ed?.length) {
    const best = ed.reduce((a, b) => (a.medianNs < b.medianNs ? a : b));
    out.push(`EdDSA vs fastest peer (${best.name}): ${ratio('EdDSA', best.name)} (target > 1)`);
  }
  for (const label of ['RS256-2048', 'ES256']) {
    const rows = results[label];
    if (rows === undefined) continue;
    const me = row(label, 'edgejwt verifySync')!;
    const bare = rows.filter((r) => r.name.includes('bare')).reduce((a, b) => (a.medianNs < b.medianNs ? a : b));
    out.push(
      `${label} edgejwt / fastest bare primitive: ${(me.medianNs / bare.medianNs).toFixed(2)} (p25: ` +
        `${(me.p25Ns / bare.p25Ns).toFixed(2)}) (target <= 1.2)`,
    );
    const [floor, alone] = floors[label]!;
    out.push(
      `${label} floor (decode + JSON.parse + primitive) / bare primitive: ` +
        `${(floor!.medianNs / alone!.medianNs).toFixed(2)}`,
    );
  }
  return out;
}
step.done();
console.log('\n' + tables.join('\n\n') + '\n');
console.log(
  smoke
    ? '(smoke run: figures not meaningful)'
    : 'Ratios: × edgejwt verifySync by median (> 1: slower than edgejwt); spread: p25–p75 over the rounds.',
);
const verdicts = targets();
console.log('### Targets (ratios from this run)\n');
for (const line of verdicts) console.log(`- ${line}`);
const data = {
  env,
  keyPaths: keyPathsFor(
    Object.values(results)
      .flat()
      .map((r) => r.name),
  ),
  variants: results,
  floors,
  verdicts,
};
if (only === undefined) console.log(`wrote ${writeResults('algorithms-node', data)}`);
else
  console.log(
    `wrote ${writePartialResults(`algorithms-node-${only.join('-')}`, data)} (BENCH_ALGS run: results/ untouched)`,
  );
