// The part of TOML a wrangler.toml uses (tables, arrays of tables, dotted keys,
// strings of all four kinds, numbers, booleans, arrays, inline tables), read
// without a dependency: the package has none at run time. Anything outside that
// subset is a TomlError with the line, never a silent misreading.

export class TomlError extends Error {
  constructor(message: string, line: number) {
    super(`line ${line}: ${message}`);
    this.name = 'TomlError';
  }
}

type Table = Record<string, unknown>;

/**
 * Parse wrangler.toml-sized TOML into plain objects.
 * @example parseToml('name = "x"\n[vars]\nA = 1') // { name: 'x', vars: { A: 1 } }
 */
export function parseToml(text: string): Table {
  const root: Table = {};
  let current = root;
  const p = { s: text.replace(/\r\n/g, '\n'), i: 0, line: 1 };

  while (p.i < p.s.length) {
    skipWsComments(p, true);
    if (p.i >= p.s.length) break;
    if (p.s[p.i] === '[') {
      const array = p.s[p.i + 1] === '[';
      p.i += array ? 2 : 1;
      const path = readKeyPath(p);
      skipInline(p);
      if (!p.s.startsWith(array ? ']]' : ']', p.i)) throw new TomlError('expected ] after a table name', p.line);
      p.i += array ? 2 : 1;
      current = array ? appendTable(root, path, p.line) : openTable(root, path, p.line);
      endOfLine(p);
      continue;
    }
    const path = readKeyPath(p);
    skipInline(p);
    if (p.s[p.i] !== '=') throw new TomlError('expected =', p.line);
    p.i++;
    skipInline(p);
    const value = readValue(p);
    setPath(current, path, value, p.line);
    endOfLine(p);
  }
  return root;
}

interface P {
  s: string;
  i: number;
  line: number;
}

function skipInline(p: P): void {
  while (p.s[p.i] === ' ' || p.s[p.i] === '\t') p.i++;
}

function skipWsComments(p: P, newlines: boolean): void {
  for (;;) {
    const c = p.s[p.i];
    if (c === ' ' || c === '\t') p.i++;
    else if (c === '\n' && newlines) {
      p.i++;
      p.line++;
    } else if (c === '#') {
      while (p.i < p.s.length && p.s[p.i] !== '\n') p.i++;
    } else return;
  }
}

function endOfLine(p: P): void {
  skipInline(p);
  if (p.s[p.i] === '#') while (p.i < p.s.length && p.s[p.i] !== '\n') p.i++;
  if (p.i < p.s.length && p.s[p.i] !== '\n') throw new TomlError('unexpected text after a value', p.line);
}

function readKeyPath(p: P): string[] {
  const parts: string[] = [];
  for (;;) {
    skipInline(p);
    const c = p.s[p.i];
    if (c === '"' || c === "'") parts.push(readString(p));
    else {
      const m = /^[A-Za-z0-9_-]+/.exec(p.s.slice(p.i));
      if (m === null) throw new TomlError('expected a key', p.line);
      parts.push(m[0]);
      p.i += m[0].length;
    }
    skipInline(p);
    if (p.s[p.i] !== '.') return parts;
    p.i++;
  }
}

function readString(p: P): string {
  const q = p.s[p.i]!;
  const multi = p.s.startsWith(q.repeat(3), p.i);
  if (multi) {
    p.i += 3;
    if (p.s[p.i] === '\n') {
      p.i++;
      p.line++;
    }
    const end = p.s.indexOf(q.repeat(3), p.i);
    if (end < 0) throw new TomlError('unterminated multi-line string', p.line);
    const raw = p.s.slice(p.i, end);
    p.line += raw.split('\n').length - 1;
    p.i = end + 3;
    return q === "'" ? raw : unescape(raw.replace(/\\\n\s*/g, ''), p.line);
  }
  p.i++;
  let out = '';
  while (p.i < p.s.length && p.s[p.i] !== q) {
    if (p.s[p.i] === '\n') throw new TomlError('newline in a string', p.line);
    if (q === '"' && p.s[p.i] === '\\') {
      out += p.s.slice(p.i, p.i + 2);
      p.i += 2;
      continue;
    }
    out += p.s[p.i++];
  }
  if (p.s[p.i] !== q) throw new TomlError('unterminated string', p.line);
  p.i++;
  return q === "'" ? out : unescape(out, p.line);
}

function unescape(s: string, line: number): string {
  return s.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, e: string) => {
    const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
    if (e in simple) return simple[e]!;
    if (e[0] === 'u' || e[0] === 'U') return String.fromCodePoint(parseInt(e.slice(1), 16));
    throw new TomlError(`bad escape \\${e}`, line);
  });
}

function readValue(p: P): unknown {
  const c = p.s[p.i];
  if (c === '"' || c === "'") return readString(p);
  if (c === '[') {
    p.i++;
    const out: unknown[] = [];
    for (;;) {
      skipWsComments(p, true);
      if (p.s[p.i] === ']') {
        p.i++;
        return out;
      }
      out.push(readValue(p));
      skipWsComments(p, true);
      if (p.s[p.i] === ',') p.i++;
      else if (p.s[p.i] !== ']') throw new TomlError('expected , or ] in an array', p.line);
    }
  }
  if (c === '{') {
    p.i++;
    const out: Table = {};
    skipInline(p);
    if (p.s[p.i] === '}') {
      p.i++;
      return out;
    }
    for (;;) {
      const path = readKeyPath(p);
      skipInline(p);
      if (p.s[p.i] !== '=') throw new TomlError('expected = in an inline table', p.line);
      p.i++;
      skipInline(p);
      setPath(out, path, readValue(p), p.line);
      skipInline(p);
      if (p.s[p.i] === ',') {
        p.i++;
        continue;
      }
      if (p.s[p.i] === '}') {
        p.i++;
        return out;
      }
      throw new TomlError('expected , or } in an inline table', p.line);
    }
  }
  const m = /^[^\s,\]}#]+/.exec(p.s.slice(p.i));
  if (m === null) throw new TomlError('expected a value', p.line);
  p.i += m[0].length;
  const w = m[0];
  if (w === 'true') return true;
  if (w === 'false') return false;
  const n = w.replace(/_/g, '');
  if (/^[+-]?(\d+|0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+)$/.test(n)) return Number(n.replace(/^\+/, ''));
  if (/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(n)) return Number(n);
  // Dates and times are kept as their text: wrangler's compatibility_date is one.
  if (/^\d{4}-\d{2}-\d{2}/.test(w)) return w;
  throw new TomlError(`unsupported value ${w.slice(0, 20)}`, p.line);
}

function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function setPath(t: Table, path: string[], value: unknown, line: number): void {
  const parent = openTable(t, path.slice(0, -1), line);
  const last = path[path.length - 1]!;
  if (Object.hasOwn(parent, last)) throw new TomlError(`${path.join('.')} is defined twice`, line);
  parent[last] = value;
}

function openTable(root: Table, path: string[], line: number): Table {
  let t = root;
  for (const k of path) {
    let next = t[k];
    if (next === undefined) t[k] = next = {};
    if (Array.isArray(next)) next = next[next.length - 1];
    if (!isTable(next)) throw new TomlError(`${path.join('.')} is not a table`, line);
    t = next;
  }
  return t;
}

function appendTable(root: Table, path: string[], line: number): Table {
  const parent = openTable(root, path.slice(0, -1), line);
  const last = path[path.length - 1]!;
  const arr = (parent[last] ??= []);
  if (!Array.isArray(arr)) throw new TomlError(`${path.join('.')} is not an array of tables`, line);
  const t: Table = {};
  arr.push(t);
  return t;
}
