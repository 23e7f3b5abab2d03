// Sign and check per algorithm, one row each (the shape of a Go JWT library's
// benchmark table: per algorithm, time per operation), edgejwt beside jose,
// fast-jwt and jsonwebtoken where they support the algorithm. Composed, not
// measured: "sign" comes from bench/sign/sign.ts's results and "check" (full verify,
// caches off) from bench/verify/algorithms.ts's, so run those first (`npm run bench`
// runs this after them). Ratios are peer ÷ edgejwt within one of those runs.
// Run: node bench/sign/table-algorithms.ts   (BENCH_SMOKE=1: from the smoke results)
import { smoke, type Sample } from '../lib/harness.ts';
import { envOf, ownCell, peerCell, readResult, row } from '../lib/compose.ts';
import { writeResults } from '../lib/env.ts';

const ALGS = [
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
type Results = { env: Record<string, string>; variants: Record<string, Sample[]> };
const sign = readResult<Results>('sign-node');
const check = readResult<Results>('algorithms-node');
if (sign === undefined && check === undefined) {
  console.error(
    `no results to compose: run bench/sign/sign.ts and bench/verify/algorithms.ts first` +
      `${smoke ? ' (with BENCH_SMOKE=1)' : ''}`,
  );
  process.exit(1);
}
// algorithms.ts labels RSA variants by modulus; the table uses its 2048-bit rows.
const checkRows = (alg: string) => check?.variants[alg] ?? check?.variants[`${alg}-2048`];

interface Line {
  alg: string;
  op: 'sign' | 'check';
  edgejwt?: Sample;
  jose?: Sample;
  'fast-jwt'?: Sample;
  jsonwebtoken?: Sample;
}
const lines: Line[] = [];
for (const alg of ALGS) {
  const s = sign?.variants[alg];
  lines.push({
    alg,
    op: 'sign',
    edgejwt: row(s, 'edgejwt signSync'),
    jose: row(s, 'jose SignJWT'),
    'fast-jwt': row(s, 'fast-jwt'),
    jsonwebtoken: row(s, 'jsonwebtoken'),
  });
  const c = checkRows(alg);
  lines.push({
    alg,
    op: 'check',
    edgejwt: row(c, 'edgejwt verifySync'),
    jose: row(c, 'jose'),
    'fast-jwt': row(c, 'fast-jwt'),
    jsonwebtoken: row(c, 'jsonwebtoken'),
  });
}

const PEERS = ['jose', 'fast-jwt', 'jsonwebtoken'] as const;
// A line the benches did not run (smoke runs take a few algorithms) is left out and named.
const shown = lines.filter((l) => l.edgejwt !== undefined);
const missing = lines.filter((l) => l.edgejwt === undefined).map((l) => `${l.alg} ${l.op}`);
const markdown = [
  `Time per operation, median (p25–p75), peer ÷ edgejwt in bold (> 1: edgejwt is faster). edgejwt signs with ` +
    `\`signSync\` and checks with \`verifySync\`; jose is async (\`SignJWT\`, \`jwtVerify\`). RSA keys are ` +
    `2048-bit. Every library gets its key made once, before timing: jose a \`CryptoKey\`, jsonwebtoken a ` +
    `\`KeyObject\`, fast-jwt and edgejwt the secret, PEM or JWK handed once to their signer or verifier. "—": ` +
    `that library lacks the algorithm.` +
    `${missing.length ? ` Not measured by the benches this table is composed from: ${missing.join(', ')}.` : ''}`,
  '',
  `Sign: ${envOf(sign?.env, ['jose', 'fast-jwt', 'jsonwebtoken'])}. Check: ` +
    `${envOf(check?.env, ['jose', 'fast-jwt', 'jsonwebtoken'])}.`,
  '',
  `| algorithm | op | edgejwt | ${PEERS.join(' | ')} |`,
  `|---|---|---:|${PEERS.map(() => '---:').join('|')}|`,
  ...shown.map(
    (l) =>
      `| ${l.alg} | ${l.op} | ${ownCell(l.edgejwt)} | ${PEERS.map((p) => peerCell(l[p], l.edgejwt)).join(' | ')} |`,
  ),
].join('\n');
console.log(`\n### Sign and check per algorithm\n\n${markdown}\n`);
const compact = (s?: Sample) => (s ? { medianNs: s.medianNs, p25Ns: s.p25Ns, p75Ns: s.p75Ns } : null);
console.log(
  `wrote ${writeResults('table-algorithms', {
    signEnv: sign?.env,
    checkEnv: check?.env,
    rows: shown.map((l) => ({
      alg: l.alg,
      op: l.op,
      ...Object.fromEntries(['edgejwt', ...PEERS].map((k) => [k, compact(l[k as keyof Line] as Sample | undefined)])),
    })),
    markdown,
  })}`,
);
