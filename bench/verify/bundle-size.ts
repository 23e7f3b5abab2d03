// Bundle sizes (issue 23): a user's Worker that calls createVerifier for one algorithm
// (HS256, EdDSA, RS256, ES256 with one key in code; RS256 with a remote key set; HS256
// with jweDecryption) and the guard's Worker entry: minified JS as Wrangler uploads it,
// gzip, the Wasm core beside it, the target where issue 23 sets one, and the source files
// that fill each (esbuild's metafile), and for the compiled entry the functions and class
// members that fill it (bench/lib/bundle-functions.ts). Sizes only, no timing.
// Run: node bench/verify/bundle-size.ts (Node 22: ./node_modules/.bin/node)
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import {
  verifierBundleLine,
  verifierBundles,
  verifierBundleTable,
  verifierFileTable,
} from '../lib/verifier-bundles.ts';
import { functionBytes, functionTable, type FunctionBytes } from '../lib/bundle-functions.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const env = environment(['esbuild']);
printEnvironment(env);
const bundles = await verifierBundles();
console.log(`\n### createVerifier and the guard in a Worker bundle\n\n${verifierBundleTable(bundles)}\n`);
for (const b of bundles) console.log(`${verifierFileTable(b, process.env.BENCH_SMOKE === '1' ? 5 : 20)}\n`);
// The compiled entry below the file level: each function and class member (approximate, scaled to the metafile's file
// bytes).
let compiledFunctions: FunctionBytes[] = [];
const compiled = bundles.find((b) => b.name.startsWith('guard compiled entry'));
if (compiled !== undefined) {
  const dir = fileURLToPath(new URL('../../build/bench-bundle/guard-compiled', import.meta.url));
  compiledFunctions = await functionBytes(join(dir, 'entry.js'), dir, compiled.files);
  console.log(`${functionTable(compiled.name, compiledFunctions, process.env.BENCH_SMOKE === '1' ? 10 : 40)}\n`);
}
console.log(verifierBundleLine(bundles));
console.log(
  `wrote ${writeResults('bundle-size', { env, bundles, compiledFunctions: compiledFunctions.slice(0, 80) })}`,
);
