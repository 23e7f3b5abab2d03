// The per-isolate verify cache in Node: what a hit costs, and what a request costs
// on average with the cache sized 1k, 2k, 5k or 10k entries under a realistic mix
// of repeated tokens. The mix: 20,000 distinct live tokens (sessions) whose
// request shares follow a Zipf law (s = 1: a few busy sessions, a long tail),
// drawn by a seeded generator so every run replays the same sequence. Each
// request hands the verifier a fresh copy of the token string, as a header would.
// The hit rate is replayed through the library's own cache class. The peers in the
// same passes: fast-jwt's verifier with its cache sized alike (its own LRU), and
// jose's jwtVerify, which has no cache (every request verifies). A single hit against
// fast-jwt's is bench/verify/verify.ts's, not repeated here.
// Run: npm run build && node bench/verify/cache-sweep.ts   (BENCH_SMOKE=1: seconds)
import { createHmac, generateKeyPairSync, sign as nodeSign, type KeyObject } from 'node:crypto';
import { createVerifier as fastJwtVerifier } from 'fast-jwt';
import * as jose from 'jose';
import { createVerifier } from '../../dist/index.js';
import { VerifyCache } from '../../dist/cache.js';
import { compare, compareAsync, formatTable, smoke, summarize } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { PAYLOAD } from '../lib/signing-input.ts';
import { progress } from '../lib/progress.ts';
import { zipfSequence } from '../lib/zipf.ts';

const SIZES = [1000, 2000, 5000, 10000];
const POPULATION = smoke ? 2000 : 20000;
/** Requests that warm each cache before timing (not timed). */
const WARM = smoke ? 5000 : 40000;
const ZIPF_S = 1.0;
/** Requests per timed pass, and passes per cache size. */
const PASS = smoke ? 2000 : 10000;
const PASSES = smoke ? 2 : 5;
const ALGS = ['HS256', 'EdDSA', 'ES256'] as const;

const b64u = (s: string | Buffer) => Buffer.from(s).toString('base64url');

function keysFor(alg: (typeof ALGS)[number]): {
  ourKey: unknown;
  peerKey: string | KeyObject;
  signer: (input: string) => Buffer;
} {
  if (alg === 'HS256') {
    const secret = Buffer.from('k'.repeat(32));
    return {
      ourKey: new Uint8Array(secret),
      peerKey: secret.toString('latin1'),
      signer: (input) => createHmac('sha256', secret).update(input).digest(),
    };
  }
  const pair = alg === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const priv: KeyObject = pair.privateKey;
  const signer =
    alg === 'EdDSA'
      ? (input: string) => nodeSign(null, Buffer.from(input), priv)
      : (input: string) => nodeSign('sha256', Buffer.from(input), { key: priv, dsaEncoding: 'ieee-p1363' });
  return { ourKey: pair.publicKey.export({ format: 'jwk' }), peerKey: pair.publicKey, signer };
}

const env = environment(['fast-jwt', 'jose']);
printEnvironment(env);
// One non-repeating sequence: the warm-up takes [0, WARM), the timed passes the rest.
const seq = zipfSequence(POPULATION, WARM + PASS * PASSES, ZIPF_S, 42);
const fresh = (t: string) => (' ' + t).slice(1);

// Hit rate of each size over the sequence, through the library's cache class.
const hitRates: Record<number, number> = {};
for (const size of SIZES) {
  const c = new VerifyCache<number>(size, 3600);
  let hits = 0;
  for (let i = 0; i < seq.length; i++) {
    const k = `token-${seq[i]}-padding-to-make-the-tail-unique-${seq[i]}`;
    const hit = c.get(k, 0) !== undefined;
    if (!hit) c.set(k, 1, 0, -Infinity, Infinity);
    if (hit && i >= WARM) hits++;
  }
  hitRates[size] = hits / (seq.length - WARM);
}
console.log(
  `\nZipf(s=${ZIPF_S}) over ${POPULATION.toLocaleString('en-US')} live tokens, ` +
    `${WARM.toLocaleString('en-US')} warm-up requests then ${(PASS * PASSES).toLocaleString('en-US')} timed; hit ` +
    `rate over the timed ones by cache size: ` +
    `${SIZES.map((s) => `${s}: ${(hitRates[s]! * 100).toFixed(1)}%`).join(', ')}`,
);

const results: Record<string, unknown> = {
  env,
  population: POPULATION,
  warmRequests: WARM,
  timedRequests: PASS * PASSES,
  zipfS: ZIPF_S,
  hitRates,
};
const step = progress('cache sweep', ALGS.length);
for (const alg of ALGS) {
  step(`${alg}: minting ${POPULATION.toLocaleString('en-US')} tokens, warming each cache`);
  const { ourKey, peerKey, signer } = keysFor(alg);
  const header = b64u(JSON.stringify({ alg, typ: 'JWT', kid: 'k1' }));
  const tokens = Array.from({ length: POPULATION }, (_, i) => {
    const input = `${header}.${b64u(JSON.stringify({ ...PAYLOAD, sub: `user-${i}`, jti: `session-${i}` }))}`;
    return `${input}.${b64u(signer(input))}`;
  });
  const none = createVerifier({ algorithms: [alg], key: ourKey as never, cache: false });
  const sized = SIZES.map((max) =>
    createVerifier({ algorithms: [alg], key: ourKey as never, cache: { max, ttl: 3600 } }),
  );
  const pem = typeof peerKey === 'string' ? peerKey : (peerKey.export({ format: 'pem', type: 'spki' }) as string);
  const peers = SIZES.map((max) => fastJwtVerifier({ key: pem, algorithms: [alg], cache: max, cacheTTL: 3_600_000 }));
  // Warm every cache with one pass so timing starts from a steady state.
  for (const v of sized) for (let i = 0; i < WARM; i++) v.verifySync(fresh(tokens[seq[i]!]!));
  for (const v of peers) for (let i = 0; i < WARM; i++) v(fresh(tokens[seq[i]!]!));
  // Misses are rare and costly, so short timing rounds would miss them: a mix
  // sample is the mean over a pass of PASS requests, passes interleaved across sizes.
  // Each cache (ours, then fast-jwt's, per size) replays the same requests in turn.
  const runners = [...sized.map((v) => (t: string) => v.verifySync(t)), ...peers.map((v) => (t: string) => v(t))];
  const cursors: number[] = runners.map(() => WARM);
  const perPass: number[][] = runners.map(() => []);
  for (let p = 0; p < PASSES; p++) {
    for (let k = 0; k < runners.length; k++) {
      const run = runners[k]!;
      let i = cursors[k]!;
      const t0 = performance.now();
      for (let j = 0; j < PASS; j++) run(fresh(tokens[seq[i++]!]!));
      perPass[k]!.push(((performance.now() - t0) * 1e6) / PASS);
      cursors[k] = i;
    }
  }
  const hot = tokens[seq[0]!]!; // the busiest session: always cached
  const joseKey = typeof peerKey === 'string' ? new TextEncoder().encode(peerKey) : peerKey;
  const samples = [
    ...compare([{ name: 'no cache (verify every request)', fn: () => none.verifySync(fresh(hot)) }]),
    ...SIZES.map((max, k) =>
      summarize(`cache ${max / 1000}k, Zipf mix (${(hitRates[max]! * 100).toFixed(0)}% hits)`, perPass[k]!),
    ),
    ...SIZES.map((max, k) => summarize(`fast-jwt cache ${max / 1000}k, Zipf mix`, perPass[SIZES.length + k]!)),
    ...compare([
      { name: 'hit, cache 1k full', fn: () => sized[0]!.verifySync(fresh(hot)) },
      { name: 'hit, cache 10k full', fn: () => sized[3]!.verifySync(fresh(hot)) },
    ]),
    ...(await compareAsync([{ name: 'jose jwtVerify (no cache)', fn: () => jose.jwtVerify(fresh(hot), joseKey) }])),
  ];
  results[alg] = samples;
  console.log(
    '\n' +
      formatTable(
        `${alg}: mean per request (mix: over passes of ${PASS.toLocaleString('en-US')} requests; fresh token ` +
          `string each time)`,
        samples,
        'no cache (verify every request)',
      ),
  );
}
step.done();
console.log(`wrote ${writeResults('cache-sweep', results)}`);
