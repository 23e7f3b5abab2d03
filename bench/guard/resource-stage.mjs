// The resource stage's per-request cost (issue 36 items 1-3), warm, in Node on the built guard (dist/):
// the metadata answer through guard.handle, an L1 hit on a rule with acr + maxAge vs. one with scopes only
// (the difference is the step-up check), a 401 with and without `resource` (the resource_metadata edit),
// and the parts alone. Medians with p25-p75 over interleaved rounds. No timing is asserted.
// Run: npm run build && node bench/guard/resource-stage.mjs
import { createSigner } from '../../dist/index.js';
import { addToEachChallenge } from '../../dist/resource/challenge-param.js';
import { checkStepUp } from '../../dist/resource/step-up.js';
import { startGuard } from '../../dist/worker/start.js';
import { defaultStages } from '../../dist/worker/stages/index.js';

const secret = new Uint8Array(32).fill(9);
const ISS = 'https://hs.example.com';
const ID = 'https://mcp.example.com/mcp';
const rules = [
  { pathPrefix: '/step', scopes: ['read'], acr: ['mfa'], maxAge: 600 },
  { pathPrefix: '/plain', scopes: ['read'] },
];
const base = { issuers: [{ issuer: ISS, algorithms: ['HS256'], secretBinding: 'K' }], origin: 'builtin:echo', rules };
const env = { K: Buffer.from(secret).toString('base64url') };
const ctx = { waitUntil() {} };
const g = await startGuard(env, { log: () => {} }, { ...base, resource: { id: ID } }, defaultStages);
const g0 = await startGuard(
  env,
  { log: () => {} },
  { ...base, issuers: [{ ...base.issuers[0], audience: ID }] },
  defaultStages,
);
const now = Math.floor(Date.now() / 1000);
const claims = {
  iss: ISS,
  aud: ID,
  sub: 'a',
  scope: 'read',
  acr: 'mfa',
  auth_time: now - 10,
  iat: now,
  exp: now + 3600,
};
const auth = { authorization: `Bearer ${await createSigner({ key: secret, alg: 'HS256' }).sign(claims)}` };
const req = (p, h = {}) => new Request(`https://mcp.example.com${p}`, { headers: h });
// Both paths pass once, so every measured authenticate is an L1 hit.
for (const p of ['/step', '/plain']) if (!(await g.authenticate(req(p, auth), ctx)).ok) throw new Error(`refused ${p}`);
const drain = async (r) => void (await r.arrayBuffer());
const header = 'Bearer realm="edgejwt", error="invalid_token", error_description="The access token is invalid"';
const param = `resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`;
const cases = {
  'metadata GET (handle)': async () => drain(await g.handle(req('/.well-known/oauth-protected-resource/mcp'), ctx)),
  'L1 hit, acr+maxAge rule': () => g.authenticate(req('/step', auth), ctx),
  'L1 hit, scopes rule': () => g.authenticate(req('/plain', auth), ctx),
  '401, resource set': async () => drain(await g.handle(req('/plain'), ctx)),
  '401, no resource': async () => drain(await g0.handle(req('/plain'), ctx)),
  'addToEachChallenge alone': () => addToEachChallenge(header, param),
  'checkStepUp alone': () => checkStepUp({ acr: 'mfa', auth_time: now - 10 }, { acr: ['mfa'], maxAge: 600 }, now, 0),
};
const N = Number(process.env.BENCH_N ?? 2000);
const ROUNDS = 15;
const out = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [k, f] of Object.entries(cases)) {
    const t = performance.now();
    for (let i = 0; i < N; i++) await f();
    out[k].push(((performance.now() - t) * 1000) / N);
  }
}
const at = (a, x) => [...a].sort((m, n) => m - n)[Math.floor(x * (a.length - 1))];
for (const [k, a] of Object.entries(out)) {
  console.log(
    `${k.padEnd(26)} ${at(a, 0.5).toFixed(2)} µs  (p25 ${at(a, 0.25).toFixed(2)}, p75 ${at(a, 0.75).toFixed(2)})`,
  );
}
