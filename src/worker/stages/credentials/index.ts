// The credentials stage: the token from the configured sources (credentials.ts), a 401 with
// an RFC 6750 challenge when it is missing (an anonymous pass under `auth: optional`), a 400
// when it is malformed. Its given part, `tokenSources` (src/bearer/token.ts: cookies, other
// headers); without it the Authorization header alone is read (authorization-token.ts).

import { dropToken, findToken } from '../../../bearer/token.js';
import type { GuardStage, StageBuild } from '../../stage.js';
import { dpopAnswersOf } from '../dpop/answers-of.js';
import { AUTHORIZATION_TOKEN, authorizationOnly, type TokenReader } from './authorization-token.js';
import { credentialStage } from './credentials.js';

/** @example const s: TokenSourcesStage = tokenSources; */
export type TokenSourcesStage = GuardStage & TokenReader;

/**
 * Cookies and other headers as token sources (`tokenSources`).
 *
 * @example
 * const guard = createGuard(config, { stages: [tokenSources] });
 */
export const tokenSources: TokenSourcesStage = {
  name: 'tokenSources',
  order: 105,
  build: () => undefined,
  findToken,
  dropToken,
};

/**
 * Where this guard reads and drops the token: Authorization alone, or the tokenSources part (credentials, forward).
 *
 * @example
 * const tokens = tokenReader(b);
 */
export function tokenReader(b: Pick<StageBuild, 'config' | 'use'>): TokenReader {
  if (authorizationOnly(b.config.tokenSources)) return AUTHORIZATION_TOKEN;
  return b.use<TokenSourcesStage>('tokenSources', 'tokenSources');
}

/**
 * The credentials stage (always in the chain).
 *
 * @example
 * const stages = [route, credentials, verify];
 */
export const credentials: GuardStage = {
  name: 'credentials',
  order: 100,
  build: (b) => {
    const { config, observe } = b;
    const find = tokenReader(b).findToken;
    const dpop = dpopAnswersOf(b);
    return { request: (cx) => credentialStage(cx, config, observe, find, dpop) };
  },
};
