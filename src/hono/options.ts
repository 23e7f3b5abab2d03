// jwtAuth's own options, held to the library's rule: a name that is not an option, a
// value of the wrong type, or an option that would be ignored is ERR_OPTIONS_INVALID
// naming the setting, when the middleware is made (or, for options made from
// `c.env`, when they are made), never a check that is silently off. An explicit
// `undefined` means "not given", as everywhere in the library.

import { VERIFIER_OPTION_NAMES } from '../verify-path.js';
import { optionsError } from '../options-error.js';

// RFC 6265 §4.1.1: a cookie name is an RFC 7230 token.
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Throws ERR_OPTIONS_INVALID (with `setting`) for a middleware option of the wrong type
 * or shape, and for verifier options given beside `verifier` (they would be ignored).
 *
 * @example
 * checkAuthSettings({ optional: 'false' }); // throws: setting "optional"
 * checkAuthSettings({ cookie: { key: 'session', secret: 's' } }); // throws: setting "cookie"
 */
export function checkAuthSettings(options: Readonly<Record<string, unknown>>): void {
  const { verifier, cookie, realm, scopes, retryAfter, optional, log } = options;
  if (verifier !== undefined) {
    if (
      typeof verifier !== 'object' ||
      verifier === null ||
      typeof (verifier as { verify?: unknown }).verify !== 'function'
    ) {
      throw optionsError('verifier', 'a verifier made by createVerifier');
    }
    for (const name of Object.keys(options)) {
      if (Object.hasOwn(VERIFIER_OPTION_NAMES, name) && options[name] !== undefined) {
        throw optionsError(
          name,
          'given beside `verifier`, which has its own options: set it where the verifier is made',
        );
      }
    }
  }
  if (cookie !== undefined) {
    if (typeof cookie === 'object' && cookie !== null) {
      throw optionsError(
        'cookie',
        "a cookie name; signed cookies (hono's { key, secret }) are not read: the token in it is signed already",
      );
    }
    if (typeof cookie !== 'string' || !COOKIE_NAME.test(cookie))
      throw optionsError('cookie', 'a cookie name (an RFC 6265 token)');
  }
  if (realm !== undefined && typeof realm !== 'string') throw optionsError('realm', 'a string');
  if (
    scopes !== undefined &&
    (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && SCOPE_TOKEN.test(s)))
  ) {
    throw optionsError('scopes', 'an array of scope names (no spaces)');
  }
  if (
    retryAfter !== undefined &&
    (typeof retryAfter !== 'number' || !Number.isSafeInteger(retryAfter) || retryAfter < 1)
  ) {
    throw optionsError('retryAfter', 'a whole number of seconds, at least 1');
  }
  if (optional !== undefined && typeof optional !== 'boolean') throw optionsError('optional', 'true or false');
  if (log !== undefined && typeof log !== 'function') throw optionsError('log', 'a function taking one line');
}
