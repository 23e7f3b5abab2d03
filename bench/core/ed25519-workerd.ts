// Ed25519 verify inside workerd (through Miniflare): edgejwt's Wasm core vs
// crypto.subtle.verify (BoringSSL), same 654-byte signing input, key imported once.
// Each request runs n verifies; Node times whole requests (workerd's clocks stand
// still during synchronous code), rounds interleaved, and subtracts the median of
// empty requests. Run: npm run build && node bench/core/ed25519-workerd.ts
import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { bundleWorker } from '../lib/workerd-bundle.ts';
import { miniflareFor } from '../lib/workerd.ts';
import { smoke, summarize, printTable, speedup, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { signingInput } from '../lib/signing-input.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const env = environment(['miniflare']);
printEnvironment(env);

const SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), SEED]);
const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
const pub = Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x as string, 'base64url');
const msg = signingInput();
const sig = sign(null, Buffer.from(msg), privateKey);

// The Worker bundled as Wrangler would (the workerd condition resolves dist/'s `#` imports), the .wasm beside it.
const outDir = join(root, 'build/bench-ed25519-workerd');
await bundleWorker(join(root, 'bench/core/ed25519-worker.js'), join(outDir, 'worker.js'));
const mf = miniflareFor(outDir);
try {
  const setup = await mf.dispatchFetch('http://bench/setup', {
    method: 'POST',
    body: JSON.stringify({ pub: pub.toString('hex'), sig: sig.toString('hex'), msg }),
  });
  const { verdicts } = (await setup.json()) as { verdicts: boolean[] };
  if (verdicts.join() !== 'true,false,true,false') throw new Error(`wrong verdicts in workerd: ${verdicts}`);

  const N = smoke ? 50 : 400;
  const ROUNDS = smoke ? 5 : 30;
  const run = async (impl: string, n: number): Promise<number> => {
    const t0 = performance.now();
    const res = await mf.dispatchFetch(`http://bench/run?impl=${impl}&n=${n}`);
    const body = await res.text();
    const ms = performance.now() - t0;
    if (impl !== 'noop' && body !== String(n)) throw new Error(`${impl}: ${body}`);
    return ms;
  };
  for (const impl of ['noop', 'ours', 'subtle']) await run(impl, N); // warm up
  const times: Record<string, number[]> = { noop: [], ours: [], subtle: [] };
  for (let r = 0; r < ROUNDS; r++)
    for (const impl of Object.keys(times)) times[impl]!.push(await run(impl, impl === 'noop' ? 0 : N));
  const overhead = summarize('noop', times.noop!).medianNs; // ms, despite the name
  const perOp = (impl: string) => times[impl]!.map((ms) => ((ms - overhead) / N) * 1e6);
  const OURS = 'edgejwt (Wasm) in workerd';
  const rows: Sample[] = [
    summarize(OURS, perOp('ours')),
    summarize('crypto.subtle.verify in workerd', perOp('subtle')),
  ];
  printTable(
    `Ed25519 verify in workerd, ${msg.length}-byte signing input, ${N} verifies per request, ${ROUNDS} rounds ` +
      `(request overhead ${overhead.toFixed(2)} ms subtracted)`,
    rows,
    OURS,
  );
  const r = speedup(rows[0]!, rows[1]!);
  console.log(
    `edgejwt vs crypto.subtle.verify in workerd: ` +
      `${r >= 1 ? `${r.toFixed(2)}x faster` : `${(1 / r).toFixed(2)}x slower`} (target: at most 1.2x slower)`,
  );
  console.log(`results: ${writeResults('ed25519-workerd', { env, rows, overheadMs: overhead, perRequest: N })}`);
} finally {
  await mf.dispose();
}
