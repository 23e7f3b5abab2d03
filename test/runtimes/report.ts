// Runs the collected corpus and reports in one shape for every runtime:
// a line `[corpus <runtime>] passed=N failed=N skipped=N` that scripts/test-all.mjs
// reads, after the slowest tests and their seconds, and the process exit code
// (browsers read globalThis.__corpus instead).
import { run, type Outcome } from './mini-test.js';

declare const Deno: { exit(code: number): never } | undefined;
declare const process: { exitCode?: number } | undefined;

export async function report(runtime: string, files: number): Promise<Outcome> {
  const started = Date.now();
  const outcome = await run((line) => console.log(line));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  for (const t of outcome.slowest) console.log(`slow: ${(t.ms / 1000).toFixed(1)} s  ${t.name}`);
  console.log(
    `[corpus ${runtime}] passed=${outcome.passed} failed=${outcome.failed} skipped=${outcome.skipped} ` +
      `files=${files} seconds=${seconds}`,
  );
  (globalThis as { __corpus?: Outcome }).__corpus = outcome;
  const code = outcome.failed > 0 || outcome.passed === 0 ? 1 : 0;
  if (typeof Deno !== 'undefined') Deno.exit(code);
  if (typeof process !== 'undefined') process.exitCode = code;
  return outcome;
}
