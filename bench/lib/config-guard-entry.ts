// A guard Worker for a bench config: an entry that passes the config to createGuard (the
// public API), warms it at module scope as the default Worker does, and is bundled as
// Wrangler would (bench/lib/workerd-bundle.ts). `src`: another checkout's src/, for a before/after.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';
import { bundleWorker, type WorkerBundle } from './workerd-bundle.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The guard Worker for `rawConfig`, minified as the bench bundles every Worker, in `dir` (entry.js, worker.js). */
export async function configGuardBundle(
  dir: string,
  rawConfig: unknown,
  src = join(root, 'src'),
  extra: { minify?: boolean; keepNames?: boolean } = { minify: true },
  stages?: readonly string[],
): Promise<WorkerBundle> {
  mkdirSync(dir, { recursive: true });
  const api = relative(dir, join(src, 'worker/api.ts')).replace(/\\/g, '/');
  // `stages`: the names of the stages to give (a guard given only what its config uses); default: every one.
  const given = stages === undefined ? ['defaultStages'] : [...stages];
  const list = stages === undefined ? 'defaultStages' : `[${given.join(', ')}]`;
  const code = [
    `import { createGuard, ${given.join(', ')} } from ${JSON.stringify(api.startsWith('.') ? api : `./${api}`)};`,
    `const guard = createGuard(${JSON.stringify(rawConfig)}, { stages: ${list} });`,
    `void import('cloudflare:workers').then((m) => guard.warm(m.env), () => undefined);`,
    'export default { fetch: guard.fetch };',
    '',
  ].join('\n');
  const entryFile = join(dir, 'entry.js');
  writeFileSync(entryFile, code);
  return bundleWorker(entryFile, join(dir, 'worker.js'), extra, src);
}

/** The one-issuer inline-key HS256 config the size target of issue 23 is about (a secret binding, echo origin). */
export const ONE_ISSUER_HS256 = {
  issuers: [
    { issuer: 'https://hs256.issuer.bench.invalid', audience: 'api', algorithms: ['HS256'], secretBinding: 'HS_KEY' },
  ],
  origin: 'builtin:echo',
  cache: { jwks: false },
};
