// Bundle size of a user's Worker that calls createVerifier for one algorithm (HS256
// alone; RS256 alone with a remote key set): minified JS as Wrangler uploads it, gzip,
// the Wasm core beside it, and the rooms of src/ that fill it. Sizes only, no timing.
// Run: node bench/verify/bundle-size.ts
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { verifierBundleLine, verifierBundles, verifierBundleTable } from '../lib/verifier-bundles.ts';

const env = environment(['esbuild']);
printEnvironment(env);
const bundles = await verifierBundles();
console.log(`\n### createVerifier in a Worker bundle\n\n${verifierBundleTable(bundles)}\n`);
console.log(verifierBundleLine(bundles));
console.log(`wrote ${writeResults('bundle-size', { env, bundles })}`);
