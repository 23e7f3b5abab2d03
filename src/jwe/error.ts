// The JwtError of a JWE failure: every module in src/jwe/ raises its codes through
// jweError, so a bundle with JWE code carries their messages (src/messages/jwe.ts)
// and a bundle without it carries none.

import { JwtError, addMessages, type JwtErrorDetails } from '../errors.js';
import { JWE_MESSAGES } from '../messages/jwe.js';

addMessages(JWE_MESSAGES);

/**
 * A JwtError with a JWE code.
 * @example
 * throw jweError('ERR_JWE_DECRYPTION_FAILED');
 */
export function jweError(code: keyof typeof JWE_MESSAGES, details?: JwtErrorDetails): JwtError {
  return new JwtError(code, details);
}
