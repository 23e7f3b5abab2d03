// The one canonical form of a request path, and the readings of it the guard
// matches rules against. Modelled on Envoy's path handling: `normalize_path`
// (RFC 3986 §6.2.2: decode unreserved escapes, upper-case the hex of the rest,
// `\` as `/`), `merge_slashes`, and `path_with_escaped_slashes_action`
// (reject, or decode, `%2F` and `%5C`). What cannot be read one way only —
// a NUL, a broken escape, a dot segment left after the runtime's own URL
// parsing — is refused rather than guessed at. docs/deploy.md ("Request paths")
// has the table of spellings.

/** What to do with `%2F` / `%5C` in a path: refuse the request (default) or read them as `/`. */
export type EscapedSlashes = 'reject' | 'decode';

/** Why a path was refused (the guard answers 400 and counts it). */
export type PathRefusal = 'escaped_slash' | 'nul' | 'bad_escape' | 'dot_segment' | 'not_absolute';

export type CanonicalPath =
  | {
      ok: true;
      /** The canonical spelling: what the guard forwards by default. */
      path: string;
      /**
       * Every plausible way an origin may read it (the canonical path; with `;params` dropped from each segment; with
       * every ASCII escape decoded; both; and with `escapedSlashes: "decode"`, the same with `;params` dropped before
       * `%2F`/`%5C` are decoded, and with `%5C` as a literal backslash). A rule applies when any reading falls under
       * it; a path is public only when every reading is.
       */
      readings: readonly string[];
    }
  | { ok: false; reason: PathRefusal };

const HEX = '0123456789ABCDEF';

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

// RFC 3986 §2.3: ALPHA / DIGIT / "-" / "." / "_" / "~".
function isUnreserved(b: number): boolean {
  const l = b | 0x20;
  return (l >= 0x61 && l <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2e || b === 0x5f || b === 0x7e;
}

/**
 * Canonicalise `received` (a URL's pathname, no query). Refuses NUL, invalid
 * percent-encoding, dot segments (`.`/`..`, also as `..;x` or via escapes) and,
 * unless `escapedSlashes` is `"decode"`, `%2F` / `%5C`.
 *
 * @example
 * canonicalPath('//Admin/%7Euser;v=1', 'reject');
 * // { ok: true, path: '/Admin/~user;v=1', readings: ['/Admin/~user;v=1', '/Admin/~user'] }
 * canonicalPath('/%2Fadmin', 'reject'); // { ok: false, reason: 'escaped_slash' }
 */
export function canonicalPath(received: string, escapedSlashes: EscapedSlashes): CanonicalPath {
  if (!received.startsWith('/') && !received.startsWith('\\')) return { ok: false, reason: 'not_absolute' };
  const plain = plainPath(received);
  // Nothing in canonicalPathByRules would change a plain path: it is its own canonical form and only reading.
  if (plain === PLAIN) return { ok: true, path: received, readings: [received] };
  if (plain === PLAIN_DOT_SEGMENT) return { ok: false, reason: 'dot_segment' };
  return canonicalPathByRules(received, escapedSlashes);
}

/**
 * canonicalPath without its shortcut for plain paths: every step, whatever the
 * path (the tests check that both agree).
 *
 * @example
 * canonicalPathByRules('/a/b', 'reject'); // { ok: true, path: '/a/b', readings: ['/a/b'] }
 */
export function canonicalPathByRules(received: string, escapedSlashes: EscapedSlashes): CanonicalPath {
  if (!received.startsWith('/') && !received.startsWith('\\')) return { ok: false, reason: 'not_absolute' };
  const first = normalise(received, escapedSlashes);
  if (typeof first !== 'string') return first;
  const path = mergeSlashes(first);
  const readings = [path];
  const add = (r: string): void => {
    if (!readings.includes(r)) readings.push(r);
  };
  add(withoutParams(path));
  const decoded = decodeAscii(path);
  add(decoded);
  add(withoutParams(decoded));
  if (escapedSlashes === 'decode') {
    const kept = normalise(received, 'keep') as string;
    if (kept !== first) {
      // An origin that drops `;params` before it decodes (Spring on the path as received)
      // reads `/api;x%2Fzz/v1` as `/api/v1`, which no reading above is.
      const early = mergeSlashes(withoutParams(kept).replace(/%2F|%5C/g, '/'));
      add(early);
      add(decodeAscii(early));
      add(withoutParams(decodeAscii(early)));
      // One that decodes `%5C` to a backslash but never reads it as `/` (nginx) sees `/admin\`.
      const literal = mergeSlashes(decodeAscii(kept));
      add(literal);
      add(withoutParams(literal));
    }
  }
  for (const r of readings) if (hasDotSegment(r)) return { ok: false, reason: 'dot_segment' };
  return { ok: true, path, readings };
}

const PLAIN = 0;
const PLAIN_DOT_SEGMENT = 1;
const NOT_PLAIN = 2;

/**
 * PLAIN: a path canonicalPathByRules would leave as it is: no `%`, `\\`, `;`,
 * NUL or `//` (normalise copies every other character; mergeSlashes,
 * withoutParams and decodeAscii have nothing to do), and no `.` or `..`
 * segment. PLAIN_DOT_SEGMENT: the same but with a dot segment (refused).
 * One scan: the common request path takes no other step.
 */
function plainPath(p: string): number {
  let start = 0;
  let prev = -1;
  let dot = false;
  for (let i = 0; i <= p.length; i++) {
    const c = i === p.length ? 0x2f : p.charCodeAt(i);
    if (c === 0x25 /* % */ || c === 0x5c /* backslash */ || c === 0x3b /* ; */ || c === 0) return NOT_PLAIN;
    if (c === 0x2f /* / */) {
      if (prev === 0x2f && i < p.length) return NOT_PLAIN;
      const n = i - start;
      if ((n === 1 || n === 2) && p.charCodeAt(start) === 0x2e && p.charCodeAt(i - 1) === 0x2e) dot = true;
      start = i + 1;
    }
    prev = c;
  }
  return dot ? PLAIN_DOT_SEGMENT : PLAIN;
}

/**
 * One pass over the received path: NUL and broken escapes refused, `\` as `/`,
 * unreserved escapes decoded, other escapes with upper-case hex. `%2F`/`%5C` are
 * refused, decoded to `/`, or (`"keep"`) kept as escapes.
 */
function normalise(
  received: string,
  escapedSlashes: EscapedSlashes | 'keep',
): string | { ok: false; reason: PathRefusal } {
  let out = '';
  for (let i = 0; i < received.length; i++) {
    const c = received.charCodeAt(i);
    if (c === 0) return { ok: false, reason: 'nul' };
    if (c === 0x5c /* \ */) {
      out += '/';
      continue;
    }
    if (c !== 0x25 /* % */) {
      out += received[i];
      continue;
    }
    const hi = i + 2 < received.length ? hexValue(received.charCodeAt(i + 1)) : -1;
    const lo = hi < 0 ? -1 : hexValue(received.charCodeAt(i + 2));
    if (lo < 0) return { ok: false, reason: 'bad_escape' };
    const b = hi * 16 + lo;
    i += 2;
    if (b === 0) return { ok: false, reason: 'nul' };
    if ((b === 0x2f || b === 0x5c) && escapedSlashes !== 'keep') {
      if (escapedSlashes === 'reject') return { ok: false, reason: 'escaped_slash' };
      out += '/';
    } else if (isUnreserved(b)) out += String.fromCharCode(b);
    else out += `%${HEX[hi]}${HEX[lo]}`;
  }
  return out;
}

function mergeSlashes(p: string): string {
  return p.replace(/\/{2,}/g, '/');
}

/** `/a;x/b;y=1` -> `/a/b`, as Tomcat and Spring read path parameters. */
function withoutParams(p: string): string {
  return p.includes(';') ? mergeSlashes(p.replace(/;[^/]*/g, '')) : p;
}

/** Every remaining escape of an ASCII byte decoded, as an origin that decodes the whole path reads it. */
function decodeAscii(p: string): string {
  return p.replace(/%([0-7][0-9A-F])/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function hasDotSegment(p: string): boolean {
  for (const seg of p.split('/')) {
    const name = seg.split(';', 1)[0];
    if (name === '.' || name === '..') return true;
  }
  return false;
}

/** Options of the guard's path decision (the `paths` object of GUARD_CONFIG). */
export interface PathPolicy {
  escapedSlashes: EscapedSlashes;
  /** false (default): rules match whatever the letter case, as a case-insensitive origin reads them. */
  caseSensitive: boolean;
  /** What the origin receives: the canonical path (default) or the path as received. */
  forward: 'canonical' | 'received';
}

/**
 * The readings the guard decides on: the canonical path's and, when the origin gets
 * the path as received (`paths.forward: "received"`), that spelling too: an origin
 * that routes on the raw path (Express) reads `/v1/ad%6Din/` under `/v1`, not under
 * `/v1/admin/`, and a first-matching rule must not be chosen without that reading.
 *
 * @example
 * const c = canonicalPath('/ad%6Din', 'reject');
 * if (c.ok) decisionReadings(c, '/ad%6Din', 'received'); // ['/admin', '/ad%6Din']
 */
export function decisionReadings(
  path: { readings: readonly string[] },
  received: string,
  forward: PathPolicy['forward'],
): readonly string[] {
  return forward === 'received' && !path.readings.includes(received) ? [...path.readings, received] : path.readings;
}

/**
 * Does rule prefix `prefix` cover `path`? A prefix ending in `/` also covers the
 * path without it (`/admin/` covers `/admin`).
 *
 * @example
 * prefixCovers('/admin/', '/admin'); // true
 * prefixCovers('/admin/', '/administrator'); // false
 */
export function prefixCovers(prefix: string, path: string): boolean {
  return path.startsWith(prefix) || (prefix.length > 1 && prefix.endsWith('/') && path === prefix.slice(0, -1));
}

/**
 * A rule applies when any reading of the path falls under its prefix (letter case
 * folded unless `caseSensitive`).
 *
 * @example
 * ruleApplies('/admin/', ['/Admin;x/y', '/Admin/y'], false); // true
 */
export function ruleApplies(prefix: string, readings: readonly string[], caseSensitive: boolean): boolean {
  const p = caseSensitive ? prefix : prefix.toLowerCase();
  return readings.some((r) => prefixCovers(p, caseSensitive ? r : r.toLowerCase()));
}

/**
 * A public-path pattern (`/health` exactly, or `/static/*` for everything under
 * `/static/`) holds for a path only when it holds for every reading, with letter
 * case as given (a case-sensitive origin may serve `/HEALTH` as something else).
 *
 * @example
 * publicFor(['/health', '/static/*'], ['/static/app.js']); // true
 * publicFor(['/health'], ['/health;x', '/health']); // false
 */
export function publicFor(patterns: readonly string[], readings: readonly string[]): boolean {
  return readings.every((r) =>
    patterns.some((pub) => (pub.endsWith('*') ? r.startsWith(pub.slice(0, -1)) : r === pub)),
  );
}
