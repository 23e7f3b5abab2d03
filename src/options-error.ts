// The one way an option mistake is reported: ERR_OPTIONS_INVALID naming the
// setting (and why, when the name alone does not say), thrown at construction,
// never at verify time.

import { JwtError } from './errors.js';

export function optionsError(setting: string, reason?: string): JwtError {
  return new JwtError('ERR_OPTIONS_INVALID', reason === undefined ? { setting } : { setting, reason });
}
