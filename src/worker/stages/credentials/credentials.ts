// The credential stage and its section (`tokenSources`): where the token is looked
// for (headers, cookies; src/bearer/token.ts reads them), and the refusal when it
// is missing (401, unless the rule makes it optional) or malformed (400).

import type { findToken, TokenSource } from '../../../bearer/token.js';
import { ConfigError } from '../../config-error.js';
import { HTTP_TOKEN, isObject, str } from '../../config-values.js';
import type { DpopAnswers } from '../dpop/dpop-answers.js';
import { ANONYMOUS, type AuthOutcome, type RequestContext } from '../../context.js';
import type { Observer } from '../observe/observe.js';
import * as answer from '../../responses.js';
import { dpopSection } from '../dpop/section.js';
import type { SectionValues } from '../../section.js';

export type { TokenSource };

/**
 * `tokenSources`, or the defaults: Authorization, and with a Cloudflare Access issuer
 * also its header and cookie.
 *
 * @example
 * parseTokenSources([{ cookie: 'session' }], false); // [{ cookie: 'session' }]
 */
export function parseTokenSources(v: unknown, cloudflareAccess: boolean): TokenSource[] {
  if (v !== undefined && (!Array.isArray(v) || v.length === 0))
    throw new ConfigError('tokenSources', 'expected a non-empty array');
  // Cloudflare Access sends its token in Cf-Access-Jwt-Assertion (and the CF_Authorization cookie).
  const defaults = cloudflareAccess
    ? [{ header: 'Cf-Access-Jwt-Assertion' }, { header: 'Authorization' }, { cookie: 'CF_Authorization' }]
    : [{ header: 'Authorization' }];
  return ((v as unknown[] | undefined) ?? defaults).map(parseSource);
}

function parseSource(v: unknown, i: number): TokenSource {
  const at = `tokenSources[${i}]`;
  if (!isObject(v) || Object.keys(v).length !== 1)
    throw new ConfigError(at, 'expected { "header": name } or { "cookie": name }');
  if (v.header !== undefined) {
    const h = str(v.header, `${at}.header`);
    if (!HTTP_TOKEN.test(h)) throw new ConfigError(`${at}.header`, 'not a valid header name');
    return { header: h };
  }
  if (v.cookie !== undefined) {
    const c = str(v.cookie, `${at}.cookie`);
    if (!HTTP_TOKEN.test(c)) throw new ConfigError(`${at}.cookie`, 'not a valid cookie name');
    return { cookie: c };
  }
  throw new ConfigError(at, 'expected { "header": name } or { "cookie": name }');
}

/**
 * Continue (undefined, `cx.token` set), an anonymous pass (optional auth, no token), or the refusal.
 * `find`: the token reader (Authorization alone, or the tokenSources part's; index.ts).
 * `dpop`: the dpop stage's answers, given whenever `dpop` is set.
 *
 * @example
 * const stop = credentialStage(cx, config, observe, parts.tokens.findToken, parts.dpopAnswers);
 * if (stop !== undefined) return stop;
 */
export function credentialStage(
  cx: RequestContext,
  config: { tokenSources: readonly TokenSource[]; realm: string; sections: SectionValues },
  observe: Observer,
  find: typeof findToken,
  dpop?: DpopAnswers,
): AuthOutcome | undefined {
  // The DPoP scheme is read only when a DPoP stage will check its proof (dpop-stage.ts).
  const dpopConfig = dpopSection.of(config);
  const found = find(cx.request.headers, config.tokenSources, dpopConfig !== undefined);
  if (found.kind === 'none') {
    // Envoy's allow_missing: no token at all passes anonymously; a bad one never does.
    if (cx.matched!.auth === 'optional') return ANONYMOUS;
    observe.count('missing_token');
    const res = answer.missingToken(config.realm);
    // RFC 9449 §7.2: a resource that takes both schemes offers both challenges.
    if (dpopConfig !== undefined)
      res.headers.append('www-authenticate', dpop!.dpopChallenge(config.realm, dpopConfig.algorithms));
    return observe.refuse(cx, res, { code: 'missing_token', status: 401 });
  }
  if (found.kind === 'malformed') {
    observe.count('malformed_token');
    return observe.refuse(cx, answer.malformedToken(config.realm), { code: 'malformed_token', status: 400 });
  }
  cx.token = found.token;
  if (found.scheme === 'dpop') cx.scheme = 'dpop';
  return undefined;
}
