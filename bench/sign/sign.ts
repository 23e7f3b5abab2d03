// Signing per algorithm in Node: edgejwt signSync / sign against fast-jwt's signer,
// jsonwebtoken, jose (SignJWT) and the bare primitive (node:crypto / crypto.subtle
// signing a fixed signing input: the floor, with no JSON or base64url work). Every
// candidate signs the same ~450-byte OIDC-like claims set with iat and exp set by
// the library (exp 300 s) and the same header members. Sync and async candidates
// are timed in separate interleaved groups; ratios are to edgejwt signSync.
// Targets checked at the end, from paired rounds (below): HS256 signSync ≥ 2x fast-jwt;
// EdDSA sign ≤ 1.2x bare node:crypto.
// Run: npm run build && node bench/sign/sign.ts   (BENCH_SMOKE=1: seconds; BENCH_ALGS=HS256,EdDSA: those only;
// BENCH_ROUNDS=N: N timed rounds per candidate)
import {
  createHmac,
  createPrivateKey,
  createSecretKey,
  sign as nodeSign,
  constants,
  type KeyObject,
} from 'node:crypto';
import { createSigner as fastJwtSigner } from 'fast-jwt';
// @ts-ignore -- jsonwebtoken ships no types
import jsonwebtoken from 'jsonwebtoken';
import * as jose from 'jose';
import { createSigner, type Algorithm } from '../../dist/index.js';
import { compare, compareAsync, formatTable, keep, smoke, type Case, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { webCryptoParams } from '../lib/material.ts';
import { PAYLOAD } from '../lib/signing-input.ts';
import { progress } from '../lib/progress.ts';

// BENCH_ALGS=HS256,EdDSA limits the run (e.g. to re-measure the two targets).
const VARIANTS =
  process.env.BENCH_ALGS?.split(',') ??
  (smoke
    ? ['HS256', 'EdDSA', 'RS256', 'ES256']
    : [
        'HS256',
        'HS384',
        'HS512',
        'EdDSA',
        'RS256',
        'RS384',
        'RS512',
        'PS256',
        'PS384',
        'PS512',
        'ES256',
        'ES384',
        'ES512',
      ]);
// BENCH_ROUNDS=200: more timed rounds per candidate (default 40), for a verdict that must not flip.
const OPTS = { rounds: Number(process.env.BENCH_ROUNDS) || undefined };
const NODE_HASH: Record<string, string> = { '256': 'sha256', '384': 'sha384', '512': 'sha512' };
const CURVE: Record<string, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };
const { exp: _exp, iat: _iat, ...CLAIMS } = PAYLOAD;
const HEADER = { kid: 'k1' };

interface Keys {
  /** HS: secret text (every peer accepts it) and bytes; others: private KeyObject, PEM, CryptoKey. */
  secretText?: string;
  secret?: Uint8Array;
  keyObject?: KeyObject;
  pem?: string;
  privateJwk?: Record<string, unknown>;
  cryptoKey: CryptoKey;
}

async function keysFor(alg: string): Promise<Keys> {
  const { importParams } = webCryptoParams(alg);
  if (alg.startsWith('HS')) {
    const secretText = 'k'.repeat(Number(alg.slice(2)) / 8);
    const secret = new TextEncoder().encode(secretText);
    const cryptoKey = await crypto.subtle.importKey('raw', secret, importParams, false, ['sign']);
    return { secretText, secret, cryptoKey };
  }
  const gen =
    alg.startsWith('RS') || alg.startsWith('PS')
      ? { ...importParams, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }
      : importParams;
  const pair = (await crypto.subtle.generateKey(gen as RsaHashedKeyGenParams, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const privateJwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as Record<string, unknown>;
  delete privateJwk.key_ops;
  delete privateJwk.ext;
  delete privateJwk.alg;
  const keyObject = createPrivateKey({ key: privateJwk as never, format: 'jwk' });
  return {
    keyObject,
    pem: keyObject.export({ format: 'pem', type: 'pkcs8' }) as string,
    privateJwk,
    cryptoKey: pair.privateKey,
  };
}

/** The bare primitive over a fixed signing input of the same size as the tokens'. */
function bareNode(alg: string, keys: Keys, input: Buffer): () => unknown {
  const hash = NODE_HASH[alg.slice(2)];
  if (keys.secret !== undefined) {
    const key = createSecretKey(keys.secret);
    return () => createHmac(hash!, key).update(input).digest();
  }
  const k = keys.keyObject!;
  if (alg === 'EdDSA') return () => nodeSign(null, input, k);
  if (alg.startsWith('ES')) return () => nodeSign(hash!, input, { key: k, dsaEncoding: 'ieee-p1363' });
  if (alg.startsWith('PS'))
    return () =>
      nodeSign(hash!, input, {
        key: k,
        padding: constants.RSA_PKCS1_PSS_PADDING,
        saltLength: Number(alg.slice(2)) / 8,
      });
  return () => nodeSign(hash!, input, k);
}

/** A minimal HS signer with no checks: the same header members and claims as the others. */
function plainHmacSigner(alg: string, secret: Uint8Array): () => string {
  const hash = NODE_HASH[alg.slice(2)]!;
  const key = createSecretKey(secret);
  const head = Buffer.from(JSON.stringify({ alg, typ: 'JWT', ...HEADER })).toString('base64url');
  return () => {
    const now = Math.floor(Date.now() / 1000);
    const input =
      head + '.' + Buffer.from(JSON.stringify({ ...CLAIMS, iat: now, exp: now + 300 })).toString('base64url');
    return input + '.' + createHmac(hash, key).update(input).digest('base64url');
  };
}

const env = environment(['jose', 'fast-jwt', 'jsonwebtoken']);
printEnvironment(env);
const results: Record<string, Sample[]> = {};
const tables: string[] = [];
const step = progress('sign table', VARIANTS.length);
const ratios: Record<string, Record<string, number>> = {};
/** The sync candidates of each algorithm, kept for the targets' paired rounds. */
const targetFns: Record<string, Case[]> = {};

for (const alg of VARIANTS) {
  step(alg);
  const keys = await keysFor(alg);
  const ours = createSigner({ alg: alg as Algorithm, key: keys.secret ?? (keys.privateJwk as never), header: HEADER });
  const token = ours.signSync(CLAIMS, { expiresIn: 300 });
  const input = Buffer.from(token.slice(0, token.lastIndexOf('.')), 'latin1');

  const fj = fastJwtSigner({
    key: keys.secretText ?? keys.pem!,
    algorithm: alg as never,
    expiresIn: 300_000,
    kid: 'k1',
  });
  fj(CLAIMS);
  const syncCases: Case[] = [
    { name: 'edgejwt signSync', fn: () => ours.signSync(CLAIMS, { expiresIn: 300 }) },
    { name: 'fast-jwt', fn: () => fj(CLAIMS) },
  ];
  if (alg !== 'EdDSA') {
    // A KeyObject made once (given a string, jsonwebtoken makes one per call).
    const jwtKey = keys.secret !== undefined ? createSecretKey(keys.secret) : keys.keyObject!;
    jsonwebtoken.sign(CLAIMS, jwtKey, { algorithm: alg, expiresIn: 300, keyid: 'k1' });
    syncCases.push({
      name: 'jsonwebtoken',
      fn: () => jsonwebtoken.sign(CLAIMS, jwtKey, { algorithm: alg, expiresIn: 300, keyid: 'k1' }),
    });
  }
  syncCases.push({ name: 'node:crypto sign (bare)', fn: bareNode(alg, keys, input) });
  // For HS: the plainest whole signer in JS (constant header segment, JSON.stringify,
  // Buffer's base64url, node:crypto HMAC): how near edgejwt is to what JS allows.
  if (keys.secret !== undefined)
    syncCases.push({ name: 'plain JS signer (floor)', fn: plainHmacSigner(alg, keys.secret) });

  // jose's fastest path: a CryptoKey imported once (secret bytes would be imported on every sign).
  const joseKey = keys.cryptoKey;
  const { verifyParams } = webCryptoParams(alg);
  const asyncCases = [
    { name: 'edgejwt sign (async)', fn: () => ours.sign(CLAIMS, { expiresIn: 300 }) },
    {
      name: 'jose SignJWT',
      fn: () =>
        new jose.SignJWT(CLAIMS)
          .setProtectedHeader({ alg, typ: 'JWT', kid: 'k1' })
          .setIssuedAt()
          .setExpirationTime('300s')
          .sign(joseKey),
    },
    { name: 'crypto.subtle.sign (bare)', fn: () => crypto.subtle.sign(verifyParams, keys.cryptoKey, input) },
  ];
  targetFns[alg] = syncCases;
  const sync = compare(syncCases, OPTS);
  const asyncRows = await compareAsync(asyncCases, OPTS);
  const rows = [...sync, ...asyncRows];
  results[alg] = rows;
  const med = (n: string) => rows.find((r) => r.name === n)!.medianNs;
  ratios[alg] = Object.fromEntries(rows.map((r) => [r.name, r.medianNs / med('edgejwt signSync')]));
  tables.push(formatTable(`${alg}: sign in Node (${token.length}-char token)`, rows, 'edgejwt signSync'));
}
step.done();
console.log('\n' + tables.join('\n\n') + '\n');
// The targets' verdicts from paired rounds: in each round both candidates run a short
// batch back to back (the order alternating), and the round's ratio is taken there.
// Load on a shared machine moves both sides of a pair alike, so the median of the
// per-round ratios is steadier than a ratio of two medians; its p25–p75 and the share
// of rounds that meet the target say whether the verdict could flip.
const PAIRED_ROUNDS = smoke ? 10 : 300;
function batchFor(fn: () => unknown, ms: number): number {
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) keep(fn());
    const el = performance.now() - t0;
    if (el >= ms / 2) return Math.max(1, Math.round((n * ms) / el));
    n *= 2;
  }
}
function pairedRatio(
  num: () => unknown,
  den: () => unknown,
): { median: number; p25: number; p75: number; rounds: number; ratios: number[] } {
  const [bn, bd] = [batchFor(num, 0.5), batchFor(den, 0.5)];
  const time = (fn: () => unknown, n: number) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) keep(fn());
    return (performance.now() - t0) / n;
  };
  const ratios: number[] = [];
  for (let r = 0; r < PAIRED_ROUNDS; r++) {
    if (r % 2 === 0) {
      const a = time(num, bn);
      ratios.push(a / time(den, bd));
    } else {
      const b = time(den, bd);
      ratios.push(time(num, bn) / b);
    }
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]!;
  return { median: at(0.5), p25: at(0.25), p75: at(0.75), rounds: sorted.length, ratios };
}
const targets: string[] = [];
const paired: Record<string, { median: number; p25: number; p75: number; rounds: number; met: number }> = {};
const fnOf = (alg: string, name: string) => targetFns[alg]?.find((c) => c.name === name)?.fn;
const hsOurs = fnOf('HS256', 'edgejwt signSync');
const hsPeer = fnOf('HS256', 'fast-jwt');
if (hsOurs && hsPeer) {
  const p = pairedRatio(hsPeer, hsOurs);
  const met = p.ratios.filter((x) => x >= 2).length / p.rounds;
  paired.HS256 = { median: p.median, p25: p.p25, p75: p.p75, rounds: p.rounds, met };
  const plain = fnOf('HS256', 'plain JS signer (floor)');
  const f = plain ? pairedRatio(hsPeer, plain) : undefined;
  if (f)
    targets.push(
      `(plain JS signer floor vs fast-jwt, same method: ${f.median.toFixed(2)}x, p25–p75 ${f.p25.toFixed(2)}–` +
        `${f.p75.toFixed(2)})`,
    );
  targets.push(
    `HS256 signSync vs fast-jwt: ${p.median.toFixed(2)}x faster (median of ${p.rounds} paired rounds, p25–p75 ` +
      `${p.p25.toFixed(2)}–${p.p75.toFixed(2)}, ${(met * 100).toFixed(0)}% of rounds ≥ 2x; target ≥ 2x: ` +
      `${p.median >= 2 ? 'met' : 'NOT met'})`,
  );
}
const edOurs = fnOf('EdDSA', 'edgejwt signSync');
const edBare = fnOf('EdDSA', 'node:crypto sign (bare)');
if (edOurs && edBare) {
  const p = pairedRatio(edOurs, edBare);
  const met = p.ratios.filter((x) => x <= 1.2).length / p.rounds;
  paired.EdDSA = { median: p.median, p25: p.p25, p75: p.p75, rounds: p.rounds, met };
  targets.push(
    `EdDSA signSync / bare node:crypto sign: ${p.median.toFixed(2)}x (median of ${p.rounds} paired rounds, ` +
      `p25–p75 ${p.p25.toFixed(2)}–${p.p75.toFixed(2)}, ${(met * 100).toFixed(0)}% of rounds ≤ 1.2x; target ≤ ` +
      `1.2x: ${p.median <= 1.2 ? 'met' : 'NOT met'})`,
  );
}
console.log(targets.join('\n'));
console.log(
  smoke
    ? '(smoke run: figures not meaningful)'
    : 'Ratios: × edgejwt signSync by median (> 1: slower than edgejwt); spread: p25–p75 over the rounds.',
);
console.log(`wrote ${writeResults('sign-node', { env, variants: results, targets, paired })}`);
