// The JwtError of a DPoP failure: every module in src/dpop/ raises its codes through
// dpopError, so a bundle with DPoP code carries their messages (src/messages/dpop.ts)
// and a bundle without it carries none.

import { JwtError, addMessages, type JwtErrorDetails } from '../errors.js';
import { DPOP_MESSAGES } from '../messages/dpop.js';

addMessages(DPOP_MESSAGES);

/**
 * A JwtError with a DPoP code.
 * @example
 * throw dpopError('ERR_DPOP_HTM_MISMATCH');
 */
export function dpopError(code: keyof typeof DPOP_MESSAGES, details?: JwtErrorDetails): JwtError {
  return new JwtError(code, details);
}
