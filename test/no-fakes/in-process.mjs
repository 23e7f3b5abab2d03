// Node, Deno and Bun: the app's handler called in this process, as an embedder
// would (a server of the runtime's own would add nothing the guard sees). The
// issuer's URL and tokens arrive in NO_FAKES (JSON, from run.mjs). The `ctx` is
// the embedder's own: there is no ExecutionContext outside Workers.
// Last line: `<runtime>: N passed, N failed`.
import { createApp } from './app.mjs';
import { buildCases, runCases } from './cases.mjs';

const runtime = globalThis.Deno ? 'deno' : globalThis.Bun ? 'bun' : `node ${process.version}`;
const { base, tokens } = JSON.parse(globalThis.Deno ? Deno.env.get('NO_FAKES') : process.env.NO_FAKES);
const handle = createApp(base);
const env = {}; // one env object, as a runtime hands the same bindings to each request
const pending = [];
const ctx = { waitUntil: (p) => pending.push(p), passThroughOnException() {} };
const cases = (await buildCases(tokens)).filter((c) => !c.workerdOnly);
const { passed, failed } = await runCases(runtime, cases, 'http://app.local', (req) => handle(req, env, ctx));
await Promise.allSettled(pending);
// Not `passed=N failed=N`: npm test reads the last such line, which must be run.mjs's total.
console.log(`${runtime}: ${passed} passed, ${failed} failed`);
