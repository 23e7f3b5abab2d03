// Line breaking for the generators that write AssemblyScript: Prettier skips assembly/ (its TypeScript
// parser refuses AssemblyScript's decorators), so they keep their own lines within WIDTH, as
// scripts/check-line-length.mjs requires. Only whitespace and string-literal splits (`'ab' + 'cd'`):
// every value stays the same.

const WIDTH = 120;

/** The top-level pieces of `s` split at `sep`, outside (), [] and quotes. */
function topLevel(s, sep) {
  const parts = [];
  let depth = 0;
  let quote = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '`') quote = c;
    else if ('(['.includes(c)) depth++;
    else if (')]'.includes(c)) depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      parts.push(s.slice(from, i));
      from = i + sep.length;
      i = from - 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** Whether every bracket in `s` (outside quotes) closes inside it. */
function balanced(s) {
  let depth = 0;
  for (const c of s.replace(/'[^']*'/g, '')) {
    if ('(['.includes(c)) depth++;
    else if (')]'.includes(c) && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * `'s'` as a literal: one piece when `indent` + `head` + it + `tail` fits WIDTH, otherwise `' ... ' +` pieces
 * (64 characters of hex, or up to the last comma that fits), each further piece on its own line two spaces in.
 */
function literal(s, indent, head, tail) {
  if (indent.length + head.length + s.length + 2 + tail.length <= WIDTH) return [`${indent}${head}'${s}'${tail}`];
  const room = WIDTH - indent.length - 2 - 4 - Math.max(head.length, 2, tail.length);
  const pieces = [];
  for (let rest = s; rest;) {
    let n = Math.min(rest.length, /^[0-9a-f]+$/.test(s) ? 64 : room);
    if (n < rest.length && !/^[0-9a-f]+$/.test(s)) n = rest.lastIndexOf(',', n - 1) + 1 || n;
    pieces.push(rest.slice(0, n));
    rest = rest.slice(n);
  }
  return pieces.map((p, i) => {
    const last = i === pieces.length - 1;
    return `${indent}${i === 0 ? head : '  '}'${p}'${last ? tail : ' +'}`;
  });
}

/**
 * One statement or expression line, `text` at `indent`, as lines within WIDTH: as it is when it fits; otherwise its
 * string literal in pieces, its one array `[1, 2, ...]` filled line by line, its last top-level call `f(a, b)` one
 * argument a line (each broken the same way), or a sum `a + b + ...` filled line by line.
 */
export function fit(indent, text, tail = '') {
  if (indent.length + text.length + tail.length <= WIDTH) return [`${indent}${text}${tail}`];
  const str = /^(.*?)'([^']*)'(\)*;?)$/.exec(text);
  if (str && !str[1].includes("'")) return literal(str[2], indent, str[1], str[3] + tail);
  const array = /^([^[']*)\[([^[\]']*)\]([^[\]']*)$/.exec(text);
  if (array) return list(array[1], array[2].split(', '), array[3] + tail, indent);
  const call = /^([^(']*)\((.*)\)(;?)$/.exec(text);
  if (call && balanced(call[2])) {
    const args = topLevel(call[2], ', ');
    return [`${indent}${call[1]}(`, ...args.flatMap((a) => fit(`${indent}  `, a, ',')), `${indent})${call[3]}${tail}`];
  }
  const sum = topLevel(text, ' + ');
  if (sum.length > 1) {
    const lines = [`${indent}${sum[0]}`];
    for (const term of sum.slice(1)) {
      const next = `${lines[lines.length - 1]} + ${term}`;
      if (next.length + (term === sum[sum.length - 1] ? tail.length : 2) <= WIDTH) lines[lines.length - 1] = next;
      else {
        lines[lines.length - 1] += ' +';
        lines.push(`${indent}  ${term}`);
      }
    }
    lines[lines.length - 1] += tail;
    return lines;
  }
  return [`${indent}${text}${tail}`];
}

/** `head[items]tail` (numbers, constants), the items filled line by line when it does not fit on one. */
export function list(head, items, tail, indent = '') {
  const one = `${indent}${head}[${items.join(', ')}]${tail}`;
  if (one.length <= WIDTH) return [one];
  const lines = [`${indent}${head}[`];
  let line = '';
  for (const item of items) {
    const next = line ? `${line} ${item},` : `${indent}  ${item},`;
    if (next.length > WIDTH) {
      lines.push(line);
      line = `${indent}  ${item},`;
    } else line = next;
  }
  lines.push(line, `${indent}]${tail}`);
  return lines;
}

/** An as-pect `it`: on one line when it fits, otherwise one statement a line, each within WIDTH. */
export function spec(name, statements, indent = '  ') {
  const one = `${indent}it('${name}', () => { ${statements.map((s) => `${s};`).join(' ')} });`;
  if (one.length <= WIDTH) return [one];
  return [`${indent}it('${name}', () => {`, ...statements.flatMap((s) => fit(`${indent}  `, `${s};`)), `${indent}});`];
}
