// Before/after of one change to the verify path: two builds of edgejwt in one
// process, verifySync (cache off) on the same tokens, interleaved round by round
// (lib/harness.ts compare) so machine drift hits both alike. A refactor that must
// not slow the hot path is checked with it.
// Usage: build the old tree, copy its package.json and dist/ to DIR, build this one, then
//   node bench/verify/ab.ts DIR [DIR2]     (DIR2: the new build, default this tree; the same DIR twice
//                                   measures the noise; BENCH_ALGS=HS256,EdDSA for a subset; BENCH_SMOKE=1 for seconds)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compare, printTable, smoke, type Case } from '../lib/harness.ts';
import { environment, printEnvironment } from '../lib/env.ts';
import { material, VARIANTS } from '../lib/material.ts';

const before = process.argv[2];
if (before === undefined) {
  console.error('usage: node bench/verify/ab.ts <dir holding the old package.json and dist/>');
  process.exit(2);
}
type Lib = typeof import('../../dist/index.js');
const load = (dir: string): Promise<Lib> => import(pathToFileURL(resolve(dir, 'dist/index.js')).href) as Promise<Lib>;
const [old, now] = await Promise.all([load(before), load(process.argv[3] ?? resolve(import.meta.dirname, '../..'))]);

printEnvironment(environment([]));
const wanted = process.env.BENCH_ALGS?.split(',') ?? ['HS256', 'HS512', 'EdDSA', 'RS256-2048', 'PS256-2048', 'ES256'];
for (const v of VARIANTS.filter((x) => wanted.includes(x.label))) {
  const m = await material(v);
  const key = m.secret ?? (m.jwk as never);
  const cases: Case[] = [];
  for (const [name, lib] of [
    ['before', old],
    ['after', now],
  ] as const) {
    const verifier = lib.createVerifier({ algorithms: [v.alg], key, cache: false });
    await verifier.verify(m.token); // first use imports the key
    verifier.verifySync(m.token);
    cases.push({ name, fn: () => verifier.verifySync(m.token) });
  }
  const [b, a] = compare(cases, smoke ? {} : { rounds: Number(process.env.BENCH_ROUNDS ?? 60) });
  printTable(`${v.label}: verifySync, cache off`, [b!, a!], 'before');
  // On a shared machine other work inflates the upper rounds: the p25 ratio is the steadier one.
  console.log(
    `after/before: median ${(a!.medianNs / b!.medianNs).toFixed(3)}, p25 ${(a!.p25Ns / b!.p25Ns).toFixed(3)}`,
  );
}
