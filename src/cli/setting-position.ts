// Where a setting (`issuers[0].algorithms[1]`, as a ConfigError names it) is written
// inside GUARD_CONFIG, so that an error points at the key and not at GUARD_CONFIG's
// first line. GUARD_CONFIG's text is JSON (a TOML string, a --config file) or part of
// a JSONC file; the walk below skips comments and trailing commas alike.

/** `issuers[0].algorithms[1]` -> ['issuers', 0, 'algorithms', 1]. */
export function settingPath(setting: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of setting.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] === undefined ? m[1]! : Number(m[2]));
  return out;
}

/** Index of the first character after blanks and comments from `i`. */
function skipBlank(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i) < 0 ? text.length : text.indexOf('*/', i) + 2;
    else return i;
  }
}

/** Index just after the JSON string starting at `i` (a `"`). */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return text.length;
}

/** Index just after the JSON value starting at `i`. */
function skipValue(text: string, i: number): number {
  if (text[i] === '"') return skipString(text, i);
  if (text[i] !== '{' && text[i] !== '[') {
    while (i < text.length && !/[\s,}\]/]/.test(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  for (let j = i; j < text.length; j = skipBlank(text, j)) {
    const c = text[j]!;
    if (c === '"') j = skipString(text, j);
    else {
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      j++;
      if (depth === 0) return j;
    }
  }
  return text.length;
}

/** The members of the object or elements of the array at `i`: [name or index, start of key or element, value]. */
function* entries(text: string, i: number): Generator<[string | number, number, number]> {
  const open = text[i];
  if (open !== '{' && open !== '[') return;
  let index = 0;
  for (let j = skipBlank(text, i + 1); j < text.length && text[j] !== '}' && text[j] !== ']';) {
    if (open === '{') {
      if (text[j] !== '"') return;
      const end = skipString(text, j);
      let name: string;
      try {
        name = JSON.parse(text.slice(j, end)) as string;
      } catch {
        return;
      }
      const colon = skipBlank(text, end);
      if (text[colon] !== ':') return;
      const value = skipBlank(text, colon + 1);
      yield [name, j, value];
      j = skipValue(text, value);
    } else {
      yield [index++, j, j];
      j = skipValue(text, j);
    }
    j = skipBlank(text, j);
    if (text[j] === ',') j = skipBlank(text, j + 1);
  }
}

/**
 * Offset in `text` of the key (or array element) `setting` names, in the JSON value
 * starting at `from`; when part of the path is not written (a missing setting), the
 * deepest part that is. Undefined when `from` holds no object.
 *
 * @example
 * settingOffset('{"a": {"bb": 1}}', 0, 'a.bb'); // 7
 */
export function settingOffset(text: string, from: number, setting: string): number | undefined {
  let at = skipBlank(text, from);
  if (text[at] !== '{') return undefined;
  let found = at;
  for (const part of settingPath(setting)) {
    const hit = [...entries(text, at)].find(([name]) => name === part);
    if (hit === undefined) break;
    found = hit[1];
    at = hit[2];
  }
  return found;
}
