// RFC 9728 §5.1 puts `resource_metadata` in every challenge of a 401 or 403. The guard's
// challenges are made by several stages (bearer refusals, DPoP's, a Bearer and a DPoP
// challenge together when no token came), so the resource stage adds the parameter to the
// finished `WWW-Authenticate` value, once per challenge, instead of every stage taking it.

/** A challenge's scheme (RFC 9110 §11.1: a token, then a space); an auth-param's name is followed by `=`. */
const SCHEME_START = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /;

/**
 * `header` (challenges this guard made: every value a quoted-string, so a `,` inside quotes never starts one)
 * with `param` appended to each challenge.
 *
 * @example
 * addToEachChallenge('Bearer realm="a", DPoP realm="a", algs="ES256"', 'p="x"');
 * // 'Bearer realm="a", p="x", DPoP realm="a", algs="ES256", p="x"'
 */
export function addToEachChallenge(header: string, param: string): string {
  let out = '';
  let from = 0;
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',' && SCHEME_START.test(header.slice(i + 1).trimStart())) {
      // The next challenge starts after this comma: close the one before it.
      out += `${header.slice(from, i)}, ${param}`;
      from = i;
    }
  }
  return `${out}${header.slice(from)}, ${param}`;
}
