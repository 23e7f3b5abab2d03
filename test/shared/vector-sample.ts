// Which cases of the large Wycheproof files a run checks. Vitest in Node runs every
// case (vitest.node.config.ts sets EDGEJWT_VECTORS=all); the other runtimes (workerd,
// Node 20/22/24 on dist/, Deno, Bun, Chromium) run a fixed sample: every case that is
// not plainly valid (invalid points, wrong curves, modified groups: the cases our own
// checks must refuse), the first few of each flag set, and every tenth by tcId.
// Enough there because the code under test is the same in every runtime (the same
// source, one WebCrypto call per case); the full file still runs once per CI.
// EDGEJWT_VECTORS=all in the environment runs every case wherever `process` exists.

interface Case {
  tcId: number;
  result: string;
  flags: string[];
}

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;

/** True where every case runs (Vitest in Node, or EDGEJWT_VECTORS=all). */
export const allVectors: boolean = env?.EDGEJWT_VECTORS === 'all';

const PER_FLAG_SET = 4;
const EVERY = 10;

/**
 * `tests` in order, or in sampled runs the fixed subset described above.
 *
 * @example
 * for (const t of vectorSample(group.tests)) check(t);
 */
export function vectorSample<T extends Case>(tests: readonly T[], seen = new Map<string, number>()): T[] {
  if (allVectors) return [...tests];
  return tests.filter((t) => {
    const set = [...t.flags].sort().join(',');
    const n = seen.get(set) ?? 0;
    seen.set(set, n + 1);
    return t.result !== 'valid' || n < PER_FLAG_SET || t.tcId % EVERY === 0;
  });
}
