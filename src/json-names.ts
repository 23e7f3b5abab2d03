// Top-level member names of a JSON object text, to reject duplicates that
// JSON.parse would silently collapse (RFC 7515 §4: a JWS with duplicate Header
// Parameter names must be rejected). Only run on text JSON.parse accepted.

/** Returns true if `json` (a valid JSON object text) repeats a top-level name or nests deeper than `maxDepth`. */
export function hasDuplicateOrDeep(json: string, maxDepth: number): boolean {
  const seen = new Set<string>();
  let depth = 0;
  let expectName = false;
  const n = json.length;
  for (let i = 0; i < n; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i + 1;
      let escaped = false;
      i++;
      while (i < n) {
        const d = json.charCodeAt(i);
        if (d === 0x5c /* \ */) {
          escaped = true;
          i += 2;
          continue;
        }
        if (d === 0x22) break;
        i++;
      }
      if (depth === 1 && expectName) {
        const raw = json.slice(start, i);
        // Escapes make "\u0061lg" and "alg" the same name: compare decoded names.
        const name = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (seen.has(name)) return true;
        seen.add(name);
        expectName = false;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > maxDepth) return true;
      expectName = depth === 1 && c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x2c /* , */ && depth === 1) {
      expectName = true;
    }
  }
  return false;
}
