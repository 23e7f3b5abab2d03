// The `paths` section (how request paths are read, matched and forwarded) and the
// check every configured path pattern passes: it must already be canonical, so it
// is compared with the request's canonical path as written (docs/deploy.md, "Request paths").

import { ConfigError } from '../../config-error.js';
import { eachElement } from '../../config-problems.js';
import { absPath, section, strList } from '../../config-values.js';
import { canonicalPath, type PathPolicy } from './path.js';
import { pathPatternProblem, type PathPatternKind } from './path-pattern.js';
import { PATHS_KEYS } from '../../config-keys.js';

/**
 * A rule prefix or public path (`/x`, `/x/`, `/x*`) in canonical form, or a ConfigError naming it.
 *
 * @example
 * canonicalSetting('/static/*', 'publicPaths[0]', 'publicPath'); // '/static/*'
 */
export function canonicalSetting(v: unknown, setting: string, kind: PathPatternKind): string {
  const p = absPath(v, setting);
  const problem = pathPatternProblem(p, kind);
  if (problem !== undefined) throw new ConfigError(setting, problem);
  const stem = p.endsWith('*') ? p.slice(0, -1) : p;
  const c = canonicalPath(stem, 'reject');
  if (!c.ok || c.path !== stem)
    throw new ConfigError(
      setting,
      'not in canonical form (single slashes, no dot segments, unreserved characters unescaped, upper-case hex)',
    );
  return p;
}

/** `publicPaths`: canonical patterns that need no token. */
export function parsePublicPaths(v: unknown): string[] {
  if (v === undefined) return [];
  return eachElement(strList(v, 'publicPaths', true), (p, i) => canonicalSetting(p, `publicPaths[${i}]`, 'publicPath'));
}

/** The `paths` section with its defaults (reject escaped slashes, case-insensitive matching, forward canonical). */
export function parsePaths(v: unknown): PathPolicy {
  const c = section(v, 'paths', PATHS_KEYS) ?? {};
  const escapedSlashes = c.escapedSlashes ?? 'reject';
  if (escapedSlashes !== 'reject' && escapedSlashes !== 'decode')
    throw new ConfigError('paths.escapedSlashes', 'expected "reject" or "decode"');
  const caseSensitive = c.caseSensitive ?? false;
  if (typeof caseSensitive !== 'boolean') throw new ConfigError('paths.caseSensitive', 'expected true or false');
  const forward = c.forward ?? 'canonical';
  if (forward !== 'canonical' && forward !== 'received')
    throw new ConfigError('paths.forward', 'expected "canonical" or "received"');
  return { escapedSlashes, caseSensitive, forward };
}
