// The code blocks of README.md and docs/ that are tagged ```ts doctest=<name> are
// real programs: each is kept byte for byte in test/node/doc-examples/<name>.ts
// (so `npm run typecheck` checks it, with `edgejwt` mapped to src/), and here
// (1) every tagged block equals its file and every file has its block,
// (2) every file runs, and what it prints equals the `// → …` (or `// prints …`)
// comments on its console.log lines, in order, and
// (3) every other TypeScript/JavaScript block is marked as a fragment on the line
// before it (`<!-- doc-test: fragment: why -->`): a block that is meant to run is a
// doctest, so an unmarked block fails here. A doc edit that breaks an example fails here.
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
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown))
    out.push({ name: m[1]!, where, code: m[2]! });
  return out;
}

/** The `// → text` (or `// prints text`) comments on console.log lines, in order. */
function expectedOutput(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\);\s*\/\/ (?:→|prints) (.*)$/gm)].map((m) => m[1]!.trim());
}

const CODE_LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs', 'tsx']);
const FRAGMENT = /^<!-- doc-test: fragment: .+ -->$/;

/** The TypeScript/JavaScript blocks that are neither doctests nor marked as fragments, as `file:line`. */
function unmarkedBlocks(markdown: string, where: string): string[] {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let open = false;
  for (const [i, line] of lines.entries()) {
    const fence = /^```(\S*)(.*)$/.exec(line);
    if (fence === null) continue;
    if (open) {
      open = false;
      continue;
    }
    open = true;
    if (!CODE_LANGS.has(fence[1]!) || /\bdoctest=/.test(fence[2]!)) continue;
    const before = lines.slice(0, i).findLast((l) => l.trim() !== '');
    if (before === undefined || !FRAGMENT.test(before.trim())) out.push(`${where}:${i + 1}`);
  }
  return out;
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

describe('doc_code_blocks_run_or_are_marked_fragments', () => {
  const docs = markdownFiles().map((f) => [f, relative(root, f)] as const);
  it('tells an unmarked block from a marked fragment, a doctest and a non-code block', () => {
    expect(unmarkedBlocks('```ts\nx\n```\n', 'a.md')).toEqual(['a.md:1']);
    expect(unmarkedBlocks('<!-- doc-test: fragment: a shape -->\n\n```ts\nx\n```\n', 'a.md')).toEqual([]);
    expect(unmarkedBlocks('```ts doctest=x\nx\n```\n```json\n{}\n```\n', 'a.md')).toEqual([]);
  });
  for (const [file, where] of docs) {
    it(`${where}: every ts/js block is a doctest or marked <!-- doc-test: fragment: why -->`, () => {
      expect(unmarkedBlocks(readFileSync(file, 'utf8'), where)).toEqual([]);
    });
  }
});

describe('doc_examples_run', () => {
  afterEach(() => vi.restoreAllMocks());
  for (const f of files) {
    it(`${f} runs and prints what its comments say`, async () => {
      const printed: string[] = [];
      vi.spyOn(console, 'log').mockImplementation(
        (...args: unknown[]) => void printed.push(args.map(String).join(' ')),
      );
      await import(join(examplesDir, f));
      const want = expectedOutput(readFileSync(join(examplesDir, f), 'utf8'));
      expect(want.length).toBeGreaterThan(0);
      expect(printed).toEqual(want);
    });
  }
});
