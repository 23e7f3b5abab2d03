// Bearer authentication shared by the guard and the Hono middleware: where the
// token is, how a refusal is answered, which scopes a token grants.
export { fromAuthorization, fromCustomHeader, fromCookie, findToken, dropToken } from './token.js';
export type { TokenLookup, TokenSource, HeaderReader } from './token.js';
export {
  quote,
  challengeResponse,
  challengeHeader,
  challengeStatus,
  publicDescription,
  keysUnavailable,
  serverFault,
  SERVER_FAULT_CODES,
  retryAfterSeconds,
  KEYS_UNAVAILABLE_CODES,
  DEFAULT_COOLDOWN_MS,
  DESCRIPTIONS,
} from './challenge.js';
export type { ChallengeKind, ChallengeOptions } from './challenge.js';
export { grantedScopes, hasScopes } from './scopes.js';
