// The path syntax GUARD_CONFIG accepts, refused early with the spelling that works:
// a public path is exact (`/health`) or ends in one `*` (`/static/*`, everything
// under /static/); a rule's pathPrefix is a plain prefix (`/static/`). Glob forms
// such as `/static/**` or `/api/*/admin` would otherwise be taken literally and
// never match, leaving the paths they meant to open or guard treated otherwise.

/** Which setting a path belongs to: a public-path pattern or a rule's prefix. */
export type PathPatternKind = 'publicPath' | 'pathPrefix';

/**
 * Why `pattern` is not a path the matcher supports, or undefined when it is.
 *
 * @example
 * pathPatternProblem('/static/**', 'publicPath');
 * // 'only one * at the end is supported: write "/static/*" for every path that starts with /static/, or an exact path'
 * pathPatternProblem('/static/*', 'publicPath'); // undefined
 * pathPatternProblem('/static/*', 'pathPrefix');
 * // 'a pathPrefix is a plain prefix without wildcards: write "/static/" ...'
 */
export function pathPatternProblem(pattern: string, kind: PathPatternKind): string | undefined {
  if (pattern.includes('?')) return 'a path has no query string (no "?")';
  const star = pattern.indexOf('*');
  if (star < 0) return undefined;
  // Everything before the first `*`: where the pattern meant to start matching.
  const stem = pattern.slice(0, star);
  if (kind === 'pathPrefix')
    return `a pathPrefix is a plain prefix without wildcards: write "${stem}" to cover every path that starts with it`;
  if (star === pattern.length - 1) return undefined;
  return (
    `only one * at the end is supported: write "${stem}*" for every path that starts with ${stem}, ` +
    'or an exact path'
  );
}
