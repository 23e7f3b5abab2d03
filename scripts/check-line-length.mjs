// `npm run check:lines`: no line of a tracked .ts/.mjs/.js/.cjs file is longer than 120 characters (the
// printWidth of .prettierrc.json; Prettier never breaks comments or strings, so it cannot promise this itself).
// A line may run over only for what cannot be broken: a URL in a comment, or an import's module path, too long for
// a line of its own. Prints each long line as `path:line: N characters` and exits 1 if there is one. A small script,
// not a linter: one rule needs no dependency tree. Last line: `[line-length] passed=N failed=N` (files).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WIDTH = 120;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Whether `line` is a comment line whose URL would not fit on a comment line of its own. */
function longUrl(line) {
  const url = /https?:\/\/\S+/.exec(line)?.[0];
  return url !== undefined && /^\s*(\/\/|\*|\/\*)/.test(line) && [...`${/^\s*/.exec(line)[0]}// ${url}`].length > WIDTH;
}

/** Whether `line` imports from a module path that would not fit on a line of its own (`} from '...';`). */
function longModulePath(line) {
  const path = /^(import|export) .* from ('[^']+');$/.exec(line)?.[2];
  return path !== undefined && [...`} from ${path};`].length > WIDTH;
}

const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.js', '*.cjs'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f);
let failed = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    continue; // deleted in the work tree, not yet in the index
  }
  const long = text
    .split('\n')
    .map((line, i) => ({ line, at: i + 1 }))
    .map(({ line, at }) => ({ line, at, length: [...line].length })) // characters, not UTF-16 units
    .filter(({ line, length }) => length > WIDTH && !longUrl(line) && !longModulePath(line));
  for (const { at, length } of long) console.log(`${file}:${at}: ${length} characters`);
  if (long.length > 0) failed++;
}
console.log(`[line-length] passed=${files.length - failed} failed=${failed}`);
process.exitCode = failed === 0 ? 0 : 1;
