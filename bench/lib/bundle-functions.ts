// Which functions and classes fill a bundle, below the file level of esbuild's metafile:
// the same entry bundled without minifying (esbuild marks each module with `// <path>`),
// each top-level statement (and each member of a class) minified alone, and its share of
// its file scaled to the file's exact minified bytes from the metafile. Approximate per
// statement (names minified alone keep their length), exact per file. Sizes only.
import { transform } from 'esbuild';
import ts from 'typescript';
import { join } from 'node:path';
import { bundleWorker } from './workerd-bundle.ts';

export interface FunctionBytes {
  file: string;
  /** `name`, or `Class.member` for a class member, or `(statement)` for an unnamed one. */
  name: string;
  bytes: number;
}

async function minifiedLength(text: string): Promise<number> {
  try {
    return Buffer.byteLength((await transform(text, { minify: true, loader: 'js', format: 'esm' })).code);
  } catch {
    return Buffer.byteLength(text);
  }
}

function nameOf(s: ts.Statement, sf: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name) return s.name.text;
  if (ts.isVariableStatement(s)) return s.declarationList.declarations.map((d) => d.name.getText(sf)).join(',');
  return '(statement)';
}

/** The class a statement declares (`class X` or esbuild's `var X = class`), if any. */
function classOf(s: ts.Statement): ts.ClassLikeDeclaration | undefined {
  if (ts.isClassDeclaration(s)) return s;
  if (ts.isVariableStatement(s) && s.declarationList.declarations.length === 1) {
    const init = s.declarationList.declarations[0]!.initializer;
    if (init !== undefined && ts.isClassExpression(init)) return init;
  }
  return undefined;
}

/**
 * Rows for `entry` bundled as a Worker: each top-level function, variable and class member,
 * its bytes scaled so that each file's rows sum to `files[file]` (exact minified bytes).
 */
export async function functionBytes(
  entry: string,
  outDir: string,
  files: Record<string, number>,
  src?: string,
): Promise<FunctionBytes[]> {
  const plain = await bundleWorker(entry, join(outDir, 'worker.plain.js'), { minify: false }, src);
  const chunks = plain.code.split(/^\/\/ (\S+)\n/m);
  const rows: FunctionBytes[] = [];
  for (let i = 1; i < chunks.length; i += 2) {
    const file = chunks[i]!.replace(/^(\.\.\/)+/, '');
    const sf = ts.createSourceFile(file, chunks[i + 1]!, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
    const mine: FunctionBytes[] = [];
    for (const s of sf.statements) {
      if (ts.isExportDeclaration(s) || ts.isImportDeclaration(s)) continue;
      const name = nameOf(s, sf);
      const cls = classOf(s);
      if (cls === undefined) {
        mine.push({ file, name, bytes: await minifiedLength(s.getText(sf)) });
        continue;
      }
      // A class: its members one by one, the rest (heritage, fields' names) as `Name.(class)`.
      // Kept by the minifier as an export (a bare class expression would be dropped as unused).
      const empty = await minifiedLength('export default class{}');
      let members = 0;
      for (const m of cls.members) {
        const text = m.getText(sf);
        const n = Math.max(0, (await minifiedLength(`export default class{${text}}`)) - empty);
        members += n;
        mine.push({
          file,
          name: `${name}.${m.name?.getText(sf) ?? (ts.isConstructorDeclaration(m) ? 'constructor' : '(member)')}`,
          bytes: n,
        });
      }
      mine.push({ file, name: `${name}.(class)`, bytes: Math.max(0, (await minifiedLength(s.getText(sf))) - members) });
    }
    const exact = Object.entries(files).find(([f]) => f.endsWith(file))?.[1];
    const sum = mine.reduce((a, r) => a + r.bytes, 0);
    for (const r of mine)
      rows.push({ ...r, bytes: exact === undefined || sum === 0 ? r.bytes : Math.round((r.bytes * exact) / sum) });
  }
  return rows.sort((a, b) => b.bytes - a.bytes);
}

/** A Markdown table of the `limit` largest rows. */
export function functionTable(title: string, rows: FunctionBytes[], limit = 40): string {
  const lines = [`| ${title}: function or member | file | minified bytes (approx.) |`, '|---|---|---:|'];
  for (const r of rows.slice(0, limit)) lines.push(`| ${r.name} | ${r.file} | ${r.bytes} |`);
  const rest = rows.slice(limit).reduce((s, r) => s + r.bytes, 0);
  if (rest > 0) lines.push(`| ${rows.length - limit} more | | ${rest} |`);
  return lines.join('\n');
}
