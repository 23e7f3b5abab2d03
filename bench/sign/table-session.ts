// Session-token operations, one row each (the shape of SecureJWT's table): sign,
// verify on a cache hit, decode, JWE (dir + A256GCM) encrypt and decrypt, then the
// verify cache sized 1k–10k under the Zipf request mix; edgejwt beside fast-jwt
// (and its cache) and jose. Composed, not measured: the rows come from the
// results of bench/sign/sign.ts (HS256), bench/verify/verify.ts (cache hit, decode),
// bench/sign/jwe.ts and bench/verify/cache-sweep.ts, so run those first (`npm run bench` runs
// this after them). Ratios are peer ÷ edgejwt within one of those runs.
// Run: node bench/sign/table-session.ts   (BENCH_SMOKE=1: from the smoke results)
import { smoke, type Sample } from '../lib/harness.ts';
import { envOf, fastest, ownCell, peerCell, readResult, row } from '../lib/compose.ts';
import { writeResults } from '../lib/env.ts';

type Env = Record<string, string>;
const sign = readResult<{ env: Env; variants: Record<string, Sample[]> }>('sign-node');
const verify = readResult<{ env: Env; 'cache-hit'?: Sample[]; decode?: Sample[] }>('verify-node');
const jwe = readResult<{ env: Env; rows: Sample[]; encryptRows?: Sample[] }>('jwe-node');
const sweep = readResult<Record<string, Sample[]> & { env: Env; hitRates: Record<string, number>; population: number }>(
  'cache-sweep',
);
if (!sign && !verify && !jwe && !sweep) {
  console.error(
    `no results to compose: run bench/sign/sign.ts, verify.ts, jwe.ts and cache-sweep.ts first` +
      `${smoke ? ' (with BENCH_SMOKE=1)' : ''}`,
  );
  process.exit(1);
}

interface Op {
  op: string;
  source: string;
  edgejwt?: Sample;
  'fast-jwt'?: Sample;
  jose?: Sample;
}
const hs = sign?.variants.HS256;
const JOSE_JWE = (verb: string) => [`jose ${verb} (key bytes)`, `jose ${verb} (CryptoKey)`];
const ops: Op[] = [
  {
    op: 'sign (HS256)',
    source: 'sign.ts',
    edgejwt: row(hs, 'edgejwt signSync'),
    'fast-jwt': row(hs, 'fast-jwt'),
    jose: row(hs, 'jose SignJWT'),
  },
  {
    op: 'verify, cache hit (HS256)',
    source: 'verify.ts',
    edgejwt: row(verify?.['cache-hit'], 'edgejwt cache hit (fresh string)'),
    'fast-jwt': row(verify?.['cache-hit'], 'fast-jwt cache hit (fresh string)'),
  },
  {
    op: 'decode (no verify)',
    source: 'verify.ts',
    edgejwt: row(verify?.decode, 'edgejwt decodeUnverified'),
    'fast-jwt': row(verify?.decode, 'fast-jwt decoder'),
    jose: row(verify?.decode, 'jose decodeJwt'),
  },
  {
    op: 'JWE encrypt (dir+A256GCM)',
    source: 'jwe.ts',
    edgejwt: row(jwe?.encryptRows, 'edgejwt encrypt (dir+A256GCM, claims)'),
    jose: fastest(jwe?.encryptRows, JOSE_JWE('EncryptJWT')),
  },
  {
    op: 'JWE decrypt + claims (dir+A256GCM)',
    source: 'jwe.ts',
    edgejwt: row(jwe?.rows, 'edgejwt verify (dir+A256GCM, claims)'),
    jose: fastest(jwe?.rows, JOSE_JWE('jwtDecrypt')),
  },
];
const PEERS = ['fast-jwt', 'jose'] as const;
const shown = ops.filter((o) => o.edgejwt !== undefined);
const out = [
  'Median (p25–p75) per operation, peer ÷ edgejwt in bold (> 1: edgejwt is faster). "—": the library has no ' +
    'such operation (fast-jwt has no JWE; jose has no verify cache). jose is async; for JWE the faster of its ' +
    'key forms (bytes or CryptoKey) is shown.',
  '',
  '| operation | edgejwt | fast-jwt | jose | from |',
  '|---|---:|---:|---:|---|',
  ...shown.map(
    (o) =>
      `| ${o.op} | ${ownCell(o.edgejwt)} | ${PEERS.map((p) => peerCell(o[p], o.edgejwt)).join(' | ')} | \`` +
      `${o.source}\` |`,
  ),
  '',
  `Runs: sign ${envOf(sign?.env, ['fast-jwt', 'jose'])}; verify ${envOf(verify?.env, ['fast-jwt', 'jose'])}; ` +
    `JWE ${envOf(jwe?.env, ['jose'])}.`,
];
const sweeps: Record<
  string,
  { size: number; hitRate: number; edgejwt?: Sample; 'fast-jwt'?: Sample; jose?: Sample }[]
> = {};
if (sweep) {
  out.push(
    '',
    `Verify cache by size under the Zipf(s=1) mix over ${sweep.population.toLocaleString('en-US')} live ` +
      `tokens (\`cache-sweep.ts\`; mean cost per request; hit rates are edgejwt's cache, fast-jwt's LRU may ` +
      `differ; jose verifies every request): ${envOf(sweep.env, ['fast-jwt', 'jose'])}.`,
  );
  for (const alg of ['HS256', 'EdDSA', 'ES256']) {
    const rows = sweep[alg];
    if (rows === undefined) continue;
    const jose = row(rows, 'jose jwtVerify (no cache)');
    sweeps[alg] = Object.entries(sweep.hitRates).map(([size, hitRate]) => {
      const k = `${Number(size) / 1000}k`;
      return {
        size: Number(size),
        hitRate,
        edgejwt: rows.find((r) => r.name.startsWith(`cache ${k}, Zipf mix`)),
        'fast-jwt': row(rows, `fast-jwt cache ${k}, Zipf mix`),
        jose,
      };
    });
    out.push(
      '',
      `| ${alg}: cache size (edgejwt hit rate) | edgejwt | fast-jwt | jose (no cache) |`,
      '|---|---:|---:|---:|',
    );
    for (const s of sweeps[alg]!)
      out.push(
        `| ${s.size.toLocaleString('en-US')} (${(s.hitRate * 100).toFixed(0)}%) | ${ownCell(s.edgejwt)} | ` +
          `${peerCell(s['fast-jwt'], s.edgejwt)} | ${peerCell(s.jose, s.edgejwt)} |`,
      );
  }
}
const markdown = out.join('\n');
console.log(`\n### Session tokens: sign, cached verify, decode, JWE, cache sizes\n\n${markdown}\n`);
console.log(`wrote ${writeResults('table-session', { ops: shown, sweeps, markdown })}`);
