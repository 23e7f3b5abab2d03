// The one error of token introspection (RFC 7662): the authorization server could not
// be asked (FAILED) or its answer cannot be used (INVALID). Both are the server side's
// fault, never the client's: a guard answers them with 503 and a log line, never 401
// and never a pass. Reasons are fixed text: no token, secret or answer bytes.

/** Why introspection gave no verdict. */
export type IntrospectionErrorCode = 'ERR_INTROSPECTION_FAILED' | 'ERR_INTROSPECTION_INVALID';

const MESSAGES: Record<IntrospectionErrorCode, string> = {
  ERR_INTROSPECTION_FAILED: 'introspection endpoint could not be asked',
  ERR_INTROSPECTION_INVALID: 'introspection answer is unusable',
};

/**
 * Introspection gave no verdict; `code` says whether the exchange or the answer failed.
 *
 * @example
 * throw new IntrospectionError('ERR_INTROSPECTION_FAILED', 'HTTP status 401 (client credentials refused)');
 */
export class IntrospectionError extends Error {
  readonly code: IntrospectionErrorCode;
  constructor(code: IntrospectionErrorCode, reason: string, cause?: unknown) {
    super(`${MESSAGES[code]}: ${reason}`, cause === undefined ? undefined : { cause });
    this.name = 'IntrospectionError';
    this.code = code;
  }
}
