// wrangler.jsonc: JSON with comments and trailing commas. Strings are copied
// as they are, so `//` inside a URL stays.

/**
 * Parse JSON with `//` and `/* *\/` comments and trailing commas.
 * @example parseJsonc('{ "a": 1, // one\n }') // { a: 1 }
 */
export function parseJsonc(text: string): unknown {
  const out = outsideStrings(text, (i, emit) => {
    if (text[i] === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      emit('\n');
    } else if (text[i] === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else emit(text[i]!);
    return i;
  });
  return JSON.parse(dropTrailingCommas(out));
}

// Outside strings only: a comma followed by nothing but whitespace and } or ].
function dropTrailingCommas(text: string): string {
  return outsideStrings(text, (i, emit) => {
    if (!(text[i] === ',' && /^\s*[}\]]/.test(text.slice(i + 1)))) emit(text[i]!);
    return i;
  });
}

// Copies each string literal (escapes included) as it is and hands every other
// position to `step`, which emits its output and returns the last index it consumed.
function outsideStrings(text: string, step: (i: number, emit: (s: string) => void) => number): string {
  let out = '';
  const emit = (s: string): void => {
    out += s;
  };
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else i = step(i, emit);
  }
  return out;
}
