// Full JWT verification (split, header, key, signature, claims) of a realistic token
// (38-byte header, ~450-byte OIDC-like payload) per algorithm: edgejwt as shipped
// (dist/) against jose, fast-jwt (uncached and cache hit), jsonwebtoken,
// @tsndr/cloudflare-worker-jwt, hono's JWT util, and the bare primitives
// (node:crypto, crypto.subtle) on the same input. Plus a stage breakdown, the
// verify cache hit with a fresh copy of the token string, and decode-only.
// Run: npm run build && node bench/verify.ts   (BENCH_SMOKE=1 for a seconds-long pass)
import { createHmac, createSecretKey, generateKeyPairSync, sign as nodeSign, timingSafeEqual, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { loadavg } from 'node:os';
import * as jose from 'jose';
import { createVerifier as fastJwtVerifier, createDecoder as fastJwtDecoder } from 'fast-jwt';
// @ts-ignore -- jsonwebtoken ships no types and @types/jsonwebtoken is not installed
import jsonwebtoken from 'jsonwebtoken';
import tsndr from '@tsndr/cloudflare-worker-jwt';
import { verify as honoVerify } from 'hono/jwt';
import { createVerifier, decodeUnverified } from '../dist/index.js';
import { stageCases } from './lib/stages.ts';
import { compare, compareAsync, printTable, formatNs, type Sample } from './lib/harness.ts';
import { environment, printEnvironment, writeResults } from './lib/env.ts';
import { PAYLOAD } from './hmac/input.ts';

const env = environment(['jose', 'fast-jwt', 'jsonwebtoken', '@tsndr/cloudflare-worker-jwt', 'hono']);
// A shared machine's load skews medians: print it, and give p25 ratios beside the median ones.
env.loadavg = loadavg().map((l) => l.toFixed(2)).join(' ');
printEnvironment(env);

const b64u = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const ALL_ALGS = ['HS256', 'HS512', 'EdDSA', 'RS256', 'PS256', 'ES256'] as const;
type Alg = (typeof ALL_ALGS)[number];
// BENCH_ALGS=RS256,ES256 runs a subset.
const ALGS = (process.env.BENCH_ALGS?.split(',') ?? ALL_ALGS).filter((a): a is Alg => (ALL_ALGS as readonly string[]).includes(a));

/** Run every candidate for a while first, so all are measured at their top JIT tier. */
async function warm(fns: (() => unknown)[], ms = smokeMode() ? 50 : 400): Promise<void> {
  for (const fn of fns) {
    const until = performance.now() + ms;
    while (performance.now() < until) await fn();
  }
}
function smokeMode(): boolean {
  return process.env.BENCH_SMOKE === '1';
}
const NODE_HASH: Record<Alg, string | null> = { HS256: 'sha256', HS512: 'sha512', EdDSA: null, RS256: 'sha256', PS256: 'sha256', ES256: 'sha256' };

interface Material {
  alg: Alg;
  token: string;
  input: Buffer;
  sig: Buffer;
  /** HS: the secret as an ASCII string (every peer accepts that form). */
  secret?: string;
  pub?: KeyObject;
  jwk?: jose.JWK;
}

function material(alg: Alg): Material {
  const header = b64u(JSON.stringify({ alg, typ: 'JWT', kid: 'k1' }));
  const payload = b64u(JSON.stringify(PAYLOAD));
  const signingInput = `${header}.${payload}`;
  const input = Buffer.from(signingInput);
  if (alg === 'HS256' || alg === 'HS512') {
    const secret = 'k'.repeat(alg === 'HS256' ? 32 : 64);
    const sig = createHmac(NODE_HASH[alg]!, secret).update(input).digest();
    return { alg, token: `${signingInput}.${b64u(sig)}`, input, sig, secret };
  }
  const pair =
    alg === 'EdDSA'
      ? generateKeyPairSync('ed25519')
      : alg === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const opts =
    alg === 'ES256'
      ? { key: pair.privateKey, dsaEncoding: 'ieee-p1363' as const }
      : alg === 'PS256'
        ? { key: pair.privateKey, padding: 6, saltLength: 32 }
        : pair.privateKey;
  const sig = nodeSign(NODE_HASH[alg], input, opts);
  // PS256 uses a plain RSA key (an rsa-pss SPKI pins parameters some peers reject).
  const pub = pair.publicKey;
  const jwk = pub.export({ format: 'jwk' }) as jose.JWK;
  return { alg, token: `${signingInput}.${b64u(sig)}`, input, sig, pub, jwk };
}

function bareNode(m: Material): () => boolean {
  const check = bareCheck(m);
  return () => check(m.input, m.sig);
}

/** node:crypto's verify for `m`'s key and algorithm (HMAC: compute + timingSafeEqual). */
function bareCheck(m: Material): (input: Buffer, sig: Buffer) => boolean {
  if (m.secret !== undefined) {
    const key = createSecretKey(Buffer.from(m.secret));
    return (input, sig) => timingSafeEqual(createHmac(NODE_HASH[m.alg]!, key).update(input).digest(), sig);
  }
  const keyArg = m.alg === 'ES256' ? { key: m.pub!, dsaEncoding: 'ieee-p1363' as const } : m.alg === 'PS256' ? { key: m.pub!, padding: 6, saltLength: 32 } : m.pub!;
  return (input, sig) => nodeVerify(NODE_HASH[m.alg], input, keyArg, sig);
}

/**
 * The least any JWT verifier does beyond the primitive: bytes of the signing input,
 * the signature and the payload decoded, the payload parsed; no check at all. Its
 * ratio to the bare primitive is the floor the "within 1.2x" target sits on.
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

async function bareSubtle(m: Material): Promise<() => Promise<boolean>> {
  const params =
    m.alg === 'HS256' || m.alg === 'HS512'
      ? { name: 'HMAC', hash: m.alg === 'HS256' ? 'SHA-256' : 'SHA-512' }
      : m.alg === 'EdDSA'
        ? { name: 'Ed25519' }
        : m.alg === 'ES256'
          ? { name: 'ECDSA', namedCurve: 'P-256' }
          : { name: m.alg === 'PS256' ? 'RSA-PSS' : 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const key =
    m.secret !== undefined
      ? await crypto.subtle.importKey('raw', Buffer.from(m.secret), params, false, ['verify'])
      : await crypto.subtle.importKey('jwk', m.jwk as JsonWebKey, params, false, ['verify']);
  const vparams = m.alg === 'ES256' ? { name: 'ECDSA', hash: 'SHA-256' } : m.alg === 'PS256' ? { name: 'RSA-PSS', saltLength: 32 } : params;
  return () => crypto.subtle.verify(vparams, key, m.sig as Uint8Array<ArrayBuffer>, m.input as Uint8Array<ArrayBuffer>);
}

const smoke = process.env.BENCH_SMOKE === '1';
const results: Record<string, unknown> = { env };
const verdicts: string[] = [];
const byName = (samples: Sample[], name: string) => samples.find((s) => s.name === name)!;

for (const alg of ALGS) {
  const m = material(alg);
  const ourKey = m.secret !== undefined ? new TextEncoder().encode(m.secret) : (m.jwk as never);
  const ours = createVerifier({ algorithms: [alg], key: ourKey, cache: false });
  const oursCached = createVerifier({ algorithms: [alg], key: ourKey });
  await ours.verify(m.token); // first use imports the key
  ours.verifySync(m.token);

  const joseKey = m.secret !== undefined ? new TextEncoder().encode(m.secret) : await jose.importJWK(m.jwk!, alg);
  const fjKey = m.secret ?? m.pub!.export({ format: 'pem', type: 'spki' });
  const fj = fastJwtVerifier({ key: fjKey, algorithms: [alg], cache: false });
  const fjCached = fastJwtVerifier({ key: fjKey, algorithms: [alg], cache: true });
  const jwtKey = m.secret ?? m.pub!;
  const honoKey = m.secret ?? (await crypto.subtle.importKey('jwk', m.jwk as JsonWebKey, alg === 'EdDSA' ? { name: 'Ed25519' } : alg === 'ES256' ? { name: 'ECDSA', namedCurve: 'P-256' } : { name: alg === 'PS256' ? 'RSA-PSS' : 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']));
  const tsndrKey = m.secret ?? (honoKey as CryptoKey);
  const bare = bareNode(m);
  const floor = minimalPipeline(m);
  const subtle = await bareSubtle(m);
  // Each peer must accept the token before it is timed.
  await jose.jwtVerify(m.token, joseKey, { algorithms: [alg] });
  fj(m.token);
  fjCached(m.token);
  const jsonwebtokenOk = alg !== 'EdDSA';
  if (jsonwebtokenOk) jsonwebtoken.verify(m.token, jwtKey as never, { algorithms: [alg] as never });
  // @tsndr has no EdDSA or PS*.
  const tsndrOk = alg !== 'EdDSA' && alg !== 'PS256' && (await tsndr.verify(m.token, tsndrKey as never, { algorithm: alg, throwError: true })) !== undefined;
  await honoVerify(m.token, honoKey as never, alg as never);
  if (!bare() || !floor() || !(await subtle())) throw new Error(`bare ${alg} failed`);

  await warm([
    () => ours.verifySync(m.token),
    () => fj(m.token),
    () => fjCached(m.token),
    ...(jsonwebtokenOk ? [() => jsonwebtoken.verify(m.token, jwtKey as never, { algorithms: [alg] as never })] : []),
    bare,
    () => ours.verify(m.token),
    () => jose.jwtVerify(m.token, joseKey, { algorithms: [alg] }),
    () => honoVerify(m.token, honoKey as never, alg as never),
    subtle,
  ]);
  // Ours runs last in each round: the first slot after the allocation-heavy peers of the
  // previous round measured up to 2x slow, whoever sat there.
  const sync = compare([
    { name: 'fast-jwt (sync, no cache)', fn: () => fj(m.token) },
    { name: 'fast-jwt (cache hit)', fn: () => fjCached(m.token) },
    ...(jsonwebtokenOk ? [{ name: 'jsonwebtoken', fn: () => jsonwebtoken.verify(m.token, jwtKey as never, { algorithms: [alg] as never }) }] : []),
    { name: 'node:crypto bare primitive', fn: bare },
    { name: 'floor: decode + JSON.parse + bare primitive', fn: floor },
    { name: 'edgejwt verifySync', fn: () => ours.verifySync(m.token) },
  ]);
  const asyncSamples = await compareAsync([
    { name: 'edgejwt verify (async)', fn: () => ours.verify(m.token) },
    { name: 'jose jwtVerify', fn: () => jose.jwtVerify(m.token, joseKey, { algorithms: [alg] }) },
    ...(tsndrOk ? [{ name: '@tsndr/cloudflare-worker-jwt', fn: () => tsndr.verify(m.token, tsndrKey as never, { algorithm: alg }) }] : []),
    { name: 'hono jwt verify', fn: () => honoVerify(m.token, honoKey as never, alg as never) },
    { name: 'crypto.subtle.verify bare', fn: subtle },
  ]);
  const all = [...sync, ...asyncSamples];
  printTable(`${alg}: full verify (${m.token.length}-char token)`, all, 'edgejwt verifySync');
  results[alg] = all;

  const mine = byName(all, 'edgejwt verifySync').medianNs;
  const mine25 = byName(all, 'edgejwt verifySync').p25Ns;
  const r = (name: string) => byName(all, name).medianNs / mine;
  const r25 = (name: string) => byName(all, name).p25Ns / mine25;
  const both = (name: string) => `${r(name).toFixed(2)}x (p25: ${r25(name).toFixed(2)}x)`;
  if (alg === 'HS256') {
    verdicts.push(`HS256 vs fast-jwt uncached: ${both('fast-jwt (sync, no cache)')} faster (target >= 1.8)`);
    verdicts.push(`HS256 vs jose: ${both('jose jwtVerify')} faster (target >= 10)`);
  }
  if (alg === 'EdDSA') {
    const peers = all.filter((s) => !s.name.startsWith('edgejwt') && !s.name.includes('bare') && !s.name.includes('cache hit'));
    const best = peers.reduce((a, b) => (a.medianNs < b.medianNs ? a : b));
    verdicts.push(`EdDSA vs fastest peer (${best.name}): ${both(best.name)} (target > 1)`);
  }
  if (alg === 'RS256' || alg === 'ES256') {
    const bareBest = Math.min(r('node:crypto bare primitive'), r('crypto.subtle.verify bare'));
    const bareBest25 = Math.min(r25('node:crypto bare primitive'), r25('crypto.subtle.verify bare'));
    verdicts.push(`${alg} edgejwt / fastest bare primitive: ${(1 / bareBest).toFixed(2)} (p25: ${(1 / bareBest25).toFixed(2)}) (target <= 1.2)`);
    // What no JWT verifier can skip (decode, JSON.parse, the primitive), on the same scale.
    const floorRatio = byName(all, 'floor: decode + JSON.parse + bare primitive').medianNs / byName(all, 'node:crypto bare primitive').medianNs;
    verdicts.push(`${alg} floor (decode + JSON.parse + bare) / bare primitive: ${floorRatio.toFixed(2)}`);
  }

  if (alg === 'HS256' || alg === 'EdDSA' || alg === 'RS256') {
    // Stage breakdown on the same token, with the library's own internals.
    const stage = compare(stageCases(m.token, alg, ourKey, (t) => ours.verifySync(t)));
    printTable(`${alg}: stage breakdown`, stage, 'full verifySync');
    results[`${alg}-stages`] = stage;
  }

  if (alg === 'HS256') {
    const fresh = () => (' ' + m.token).slice(1);
    const hits = compare([
      { name: 'edgejwt cache hit (fresh string)', fn: () => oursCached.verifySync(fresh()) },
      { name: 'fast-jwt cache hit (fresh string)', fn: () => fjCached(fresh()) },
      { name: 'fresh string alone', fn: fresh },
    ]);
    printTable('HS256: verify cache hit, a fresh copy of the token each time', hits, 'edgejwt cache hit (fresh string)');
    results['cache-hit'] = hits;
    const hit = byName(hits, 'edgejwt cache hit (fresh string)');
    verdicts.push(`cache hit: ${Math.round(hit.opsPerSec).toLocaleString('en-US')}/s, ${formatNs(hit.medianNs)} (target >= 3,000,000/s)`);

    const decoder = fastJwtDecoder();
    const dec = compare([
      { name: 'edgejwt decodeUnverified', fn: () => decodeUnverified(m.token) },
      { name: 'jose decodeJwt', fn: () => jose.decodeJwt(m.token) },
      { name: 'fast-jwt decoder', fn: () => decoder(m.token) },
    ]);
    printTable('Decode only (no verification)', dec, 'edgejwt decodeUnverified');
    results.decode = dec;
    verdicts.push(`decode-only vs jose decodeJwt: ${(byName(dec, 'jose decodeJwt').medianNs / byName(dec, 'edgejwt decodeUnverified').medianNs).toFixed(2)}x faster (target > 1)`);
  }
}

console.log('\n### Targets (ratios from this run)\n');
for (const v of verdicts) console.log(`- ${v}`);
results.verdicts = verdicts;
if (!smoke) console.log(`\nwrote ${writeResults('verify-node', results)}`);
