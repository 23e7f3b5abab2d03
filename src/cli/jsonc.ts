// wrangler.jsonc: JSON with comments and trailing commas. Strings are copied
// as they are, so `//` inside a URL stays.

/**
 * Parse JSON with `//` and `/* *\/` comments and trailing commas.
 * @example parseJsonc('{ "a": 1, // one\n }') // { a: 1 }
 */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return JSON.parse(dropTrailingCommas(out));
}

// Outside strings only: a comma followed by nothing but whitespace and } or ].
function dropTrailingCommas(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === ',' && /^\s*[}\]]/.test(text.slice(i + 1))) {
      continue;
    } else out += c;
  }
  return out;
}
