// Where GUARD_CONFIG sits in the Wrangler file, so that an error can name the line
// and column. Wrangler hands back values, not positions; the text is searched for
// the key (in the environment's section when one is chosen) and for the value.

import type { SourcePosition } from './cli-error.js';

/**
 * The 1-based line and column of `offset` in `text`.
 *
 * @example
 * positionAt('a\nbc', 3, 'f.toml'); // { file: 'f.toml', line: 2, column: 2 }
 */
export function positionAt(text: string, offset: number, file: string): SourcePosition {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { file, line: before.split('\n').length, column: offset - lineStart + 1 };
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Offset of the key `name` (as `name =` in TOML or `"name":` in JSON) in `text`: the
 * first one after `env.NAME`'s section when `env` is given, else the first one
 * before any environment section.
 *
 * @example
 * keyOffset('[vars]\nGUARD_CONFIG = "{}"', 'GUARD_CONFIG'); // 7
 */
export function keyOffset(text: string, name: string, env?: string): number | undefined {
  const keys = [...text.matchAll(new RegExp(`(?<=^|[\\s{,])["']?${escapeRe(name)}["']?\\s*[=:]`, 'gm'))].map(
    (m) => m.index,
  );
  if (env !== undefined) {
    const from = envSectionOffset(text, env);
    return from < 0 ? undefined : keys.find((k) => k > from);
  }
  const firstEnv = text.search(/\[\s*env\.|["']env["']\s*:/);
  return keys.find((k) => firstEnv < 0 || k < firstEnv);
}

/**
 * Offset of environment `env`'s section (`[env.NAME]`, `[[env.NAME.…]]`, or `"NAME": {` in
 * JSON), or -1 when the file has none.
 *
 * @example
 * envSectionOffset('[env.dev.vars]', 'dev'); // 0
 */
export function envSectionOffset(text: string, env: string): number {
  return text.search(new RegExp(`\\[\\s*env\\.${escapeRe(env)}[\\s.\\]]|["']${escapeRe(env)}["']\\s*:`));
}

/**
 * Offset of a string value's first character, searched from `from` (a literal
 * string appears in the file as it is; one with escapes is not found).
 *
 * @example
 * valueOffset("A = '{}'", '{}', 0); // 5
 */
export function valueOffset(text: string, value: string, from: number): number | undefined {
  const at = text.indexOf(value, from);
  return at < 0 ? undefined : at;
}

/**
 * The offset a JSON.parse SyntaxError names (`at position N`, Node 22 and later),
 * or undefined (Node 20's messages name none).
 *
 * @example
 * try { JSON.parse('{,}'); } catch (e) { jsonErrorOffset(e); } // 1 on Node 22
 */
export function jsonErrorOffset(e: unknown): number | undefined {
  const m = e instanceof SyntaxError ? /at position (\d+)/.exec(e.message) : null;
  return m ? Number(m[1]) : undefined;
}
