// A generated figure or table lives in a document between a begin and an end marker
// (HTML comments), so it is never typed by hand; the generators write it there with this.
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Replace what stands between `begin` and `end` in the file at `path` with `inner`
 * (the markers stay). Throws when the file lacks either marker.
 * @example writeBetweenMarkers('docs/runtimes.md', BEGIN, END, '44.7 KB');
 */
export function writeBetweenMarkers(path, begin, end, inner) {
  const text = readFileSync(path, 'utf8');
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${path} has no ${begin} … ${end} markers`);
  writeFileSync(path, `${text.slice(0, a)}${begin}${inner}${text.slice(b)}`);
}
