// What sharing a cached result safely costs (issue 11): the verify cache hands
// the same result to every caller of a token, so it is frozen all the way down
// once, when it is stored (a miss). Measured against the same HS256 verify with
// `cache: false` in the same run: the old shallow Object.freeze, the deep freeze
// now used, and the alternative (a structuredClone per caller, paid on every
// hit), for a flat OIDC-like payload and one with nested roles and groups.
// Run: npm run build && node bench/verify/freeze.ts   (BENCH_SMOKE=1: seconds)
import { createHmac } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { loadavg } from 'node:os';
import { createVerifier } from '../../dist/index.js';
import { deepFreeze } from '../../dist/freeze.js';
import { compare, formatTable, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { PAYLOAD } from '../lib/signing-input.ts';

const env = environment();
env.loadavg = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
printEnvironment(env);

const b64u = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const secret = Buffer.from('k'.repeat(32));
function mint(payload: object): string {
  const input = `${b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64u(JSON.stringify(payload))}`;
  return `${input}.${b64u(createHmac('sha256', secret).update(input).digest())}`;
}

const NESTED = {
  ...PAYLOAD,
  roles: ['viewer', 'editor', 'billing', 'support', 'ops'],
  groups: ['/eng', '/eng/platform', '/ops'],
  org: { id: 'org-42', teams: [1, 2, 3].map((i) => ({ name: `team-${i}`, perms: ['read', 'write', `t${i}`] })) },
  realm_access: { roles: ['offline_access', 'uma_authorization'] },
};

const fresh = (t: string) => (' ' + t).slice(1);
const results: Record<string, unknown> = { env };

for (const [shape, payload] of [
  ['flat OIDC payload', PAYLOAD],
  ['nested roles/groups payload', NESTED],
] as const) {
  const token = mint(payload);
  const none = createVerifier({ algorithms: ['HS256'], key: new Uint8Array(secret), cache: false });
  const cached = createVerifier({ algorithms: ['HS256'], key: new Uint8Array(secret), cache: { max: 10, ttl: 3600 } });
  cached.verifySync(token);
  const base = 'verify, cache: false (caller owns it)';
  const samples: Sample[] = compare([
    { name: base, fn: () => none.verifySync(fresh(token)) },
    {
      name: 'verify + Object.freeze (shallow, before)',
      fn: () => Object.freeze(none.verifySync(fresh(token)).payload),
    },
    { name: 'verify + deepFreeze (a miss, now)', fn: () => deepFreeze(none.verifySync(fresh(token)).payload) },
    { name: 'cache hit (frozen, shared)', fn: () => cached.verifySync(fresh(token)) },
    {
      name: 'cache hit + structuredClone (copy per caller)',
      fn: () => structuredClone(cached.verifySync(fresh(token)).payload),
    },
  ]);
  results[shape] = samples;
  console.log('\n' + formatTable(`HS256, ${shape} (${JSON.stringify(payload).length} bytes of JSON)`, samples, base));
  const by = (n: string) => samples.find((s) => s.name.startsWith(n))!.medianNs;
  const miss = by('verify + deepFreeze') - by('verify, cache');
  const shallow = by('verify + Object.freeze') - by('verify, cache');
  const copy = by('cache hit + structuredClone') - by('cache hit (frozen');
  console.log(
    `deep freeze adds ${miss.toFixed(0)} ns to a miss (shallow freeze: ${shallow.toFixed(0)} ns), ` +
      `${((miss / by('verify, cache')) * 100).toFixed(1)}% of the verify; a copy per caller would add ` +
      `${copy.toFixed(0)} ns to every hit.`,
  );
}
console.log(`wrote ${writeResults('freeze', results)}`);
