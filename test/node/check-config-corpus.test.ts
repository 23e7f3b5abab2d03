// The broken-config corpus of `edgejwt check-config` (test/node/check-config/): each
// Wrangler file holds one mistake or several (all reported in one run, in the order they are
// written), its `.expected` file what the command answers: `exit N`,
// then its `error:` lines (a line ending in `…` matches any line it begins). A first-line
// comment `args: …` gives the command's options (`--env NAME`). Run in process, as the
// bin runs it (src/cli/edgejwt.ts prints `error: ` and each CliError with its position).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkConfigFile } from '../../src/cli/check-config.js';
import { CliError, EXIT } from '../../src/cli/cli-error.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = join(root, 'test/node/check-config');
const cases = readdirSync(dir).filter((f) => /\.(toml|jsonc?)$/.test(f));

/** What the bin prints on stderr and exits with for `file`. */
async function answer(file: string): Promise<string[]> {
  const text = readFileSync(join(dir, file), 'utf8');
  const env = /^(?:#|\/\/) args: --env (\S+)/.exec(text)?.[1];
  try {
    const options = { file: relative(process.cwd(), join(dir, file)), ...(env === undefined ? {} : { env }) };
    const { result } = await checkConfigFile(options);
    return [`exit ${result.ok ? EXIT.ok : EXIT.invalid}`, ...result.errors.map((e) => `error: ${e}`)];
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    return [`exit ${e.exitCode}`, `error: ${e.toString()}`];
  }
}

describe('check_config_names_each_broken_config_at_its_key', () => {
  it('has a corpus with an expected answer for every file', () => {
    expect(cases.length).toBeGreaterThanOrEqual(13);
  });
  for (const file of cases) {
    it(file, async () => {
      const expected = readFileSync(join(dir, file.replace(/\.\w+$/, '.expected')), 'utf8')
        .trimEnd()
        .split('\n');
      const got = await answer(file);
      expect(got.length, got.join('\n')).toBe(expected.length);
      for (const [i, line] of expected.entries()) {
        if (line.endsWith('…')) expect(got[i]!.startsWith(line.slice(0, -1)), got[i]).toBe(true);
        else expect(got[i]).toBe(line);
      }
    });
  }
});
