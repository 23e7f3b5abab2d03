// Every options object the library accepts has an allow-list of its names: in plain
// JS a misspelt name (`audiance: 'api'`) would otherwise be ignored and silently turn
// a check off. Each list lives next to the interface it names (POLICY_OPTION_NAMES in
// options.ts, VERIFIER_OPTION_NAMES in verify-path.ts, ...), tied to it by
// `satisfies OptionNames<T>`, so a new option that is not added there does not
// compile. This file holds only what every list shares, and imports nothing above
// the foundations (no import circle: architecture.md, "Import rules").

import { optionsError } from './options-error.js';

/**
 * An allow-list with exactly the names of T (checked by `satisfies`).
 *
 * @example
 * const NAMES = { max: true, ttl: true } as const satisfies OptionNames<CacheOptions>;
 */
export type OptionNames<T> = Record<keyof T, true>;

/**
 * Throws ERR_OPTIONS_INVALID naming the first own name of `options` that is not in
 * `allowed` (prefixed with `at`, e.g. `issuers[1].audiance`).
 *
 * @example
 * checkOptionNames({ audiance: 'api' }, VERIFIER_OPTION_NAMES); // throws: setting "audiance"
 */
export function checkOptionNames(options: object, allowed: Readonly<Record<string, true>>, at?: string): void {
  // for-in allocates no key array (this runs on every signSync). It also visits
  // inherited enumerable names, which the hasOwn test skips; an allow-list holds only
  // `true`, which no inherited member of a plain object is.
  for (const name in options) {
    if ((allowed as Record<string, unknown>)[name] !== true && Object.hasOwn(options, name)) {
      throw optionsError(at === undefined ? name : `${at}.${name}`, 'unknown option');
    }
  }
}

/**
 * A copy without the members whose value is `undefined`: an explicit `undefined`
 * means "not given", so it never replaces a default when options merge.
 *
 * @example
 * ({ ...{ audience: 'api' }, ...definedOnly({ audience: undefined }) }); // { audience: 'api' }
 */
export function definedOnly<T extends object>(options: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(options)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
