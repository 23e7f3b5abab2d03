// The code blocks of README.md and docs/ that are tagged ```ts doctest=<name> are
// real programs: each is kept byte for byte in test/node/doc-examples/<name>.ts
// (so `npm run typecheck` checks it, with `edgejwt` mapped to src/), and here
// (1) every tagged block equals its file and every file has its block, and
// (2) every file runs, and what it prints equals the `// → …` comments on its
// console.log lines, in order. A doc edit that breaks an example fails here.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const examplesDir = join(root, 'test/node/doc-examples');

function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(root, 'docs', f));
  return [join(root, 'README.md'), ...docs];
}

interface Block {
  name: string;
  where: string;
  code: string;
}

/** Every fenced block whose info string is `ts doctest=<name>`. */
function taggedBlocks(markdown: string, where: string): Block[] {
  const out: Block[] = [];
  const fence = /^```ts doctest=([a-z0-9-]+)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) out.push({ name: m[1]!, where, code: m[2]! });
  return out;
}

/** The `// → text` comments on console.log lines, in order. */
function expectedOutput(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\);\s*\/\/ → (.*)$/gm)].map((m) => m[1]!.trim());
}

const blocks = markdownFiles().flatMap((f) => taggedBlocks(readFileSync(f, 'utf8'), relative(root, f)));
const files = readdirSync(examplesDir).filter((f) => f.endsWith('.ts'));

describe('doc_examples_match_their_files', () => {
  it('finds the tagged blocks (the README has at least a sign and an encrypt example)', () => {
    expect(blocks.map((b) => b.name)).toEqual(expect.arrayContaining(['readme-sign', 'readme-encrypt']));
  });
  it('names every block once', () => {
    const names = blocks.map((b) => b.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });
  for (const b of blocks) {
    it(`${b.where}: ${b.name} equals test/node/doc-examples/${b.name}.ts`, () => {
      const file = join(examplesDir, `${b.name}.ts`);
      expect(existsSync(file), `missing test/node/doc-examples/${b.name}.ts`).toBe(true);
      expect(b.code).toBe(readFileSync(file, 'utf8'));
    });
  }
  it('has no file without its block', () => {
    expect(files.filter((f) => !blocks.some((b) => `${b.name}.ts` === f))).toEqual([]);
  });
});

describe('doc_examples_run', () => {
  afterEach(() => vi.restoreAllMocks());
  for (const f of files) {
    it(`${f} runs and prints what its comments say`, async () => {
      const printed: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
      await import(join(examplesDir, f));
      const want = expectedOutput(readFileSync(join(examplesDir, f), 'utf8'));
      expect(want.length).toBeGreaterThan(0);
      expect(printed).toEqual(want);
    });
  }
});
