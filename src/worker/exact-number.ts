// JSON numbers beyond ±2^53 lose digits when parsed (as doubles): 12345678901234567891
// and 12345678901234567890 both become 12345678901234567000. A comparison of such a
// number says nothing about the digits the issuer (or the operator) wrote, so the guard
// never compares one: config values are refused, token values never match.

import { ConfigError } from './config-error.js';

/**
 * An integer a double cannot hold exactly (beyond ±(2^53 − 1)): its digits may already be lost.
 *
 * @example
 * roundedInteger(JSON.parse('12345678901234567891')); // true
 * roundedInteger(2 ** 53 - 1); // false
 * roundedInteger(1.5); // false
 */
export function roundedInteger(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v);
}

/**
 * A ConfigError naming `setting` when a claim value (or an item of a list of them) is a
 * rounded integer: the guard could not tell the IDs it stands for apart.
 *
 * @example
 * refuseRoundedConfigValue(JSON.parse('[1, 12345678901234567891]'), 'rules[0].claims.tenant'); // throws
 */
export function refuseRoundedConfigValue(want: unknown, setting: string): void {
  const items = Array.isArray(want) ? want : [want];
  if (items.some(roundedInteger)) {
    throw new ConfigError(
      setting,
      'an integer beyond ±2^53 (9007199254740991) loses digits when parsed, so other IDs would match it; ' +
        'write it as a string (and have the issuer send a string)',
    );
  }
}
