// Every problem of a GUARD_CONFIG, not only the first: parseConfig checks each section,
// and the section parsers each issuer, rule or path, on its own, keeping the ConfigErrors
// and throwing them together at the end. As a ConfigError the lot is its first problem, so
// the guard's 500 and log line name what they always named; `edgejwt check-config` lists all.

import { ConfigError } from './config-error.js';

/**
 * Several configuration problems at once, in the order they were checked; its setting and
 * message are the first one's.
 *
 * @example
 * const realm = new ConfigError('realm', 'expected a non-empty string');
 * throw new ConfigErrors([realm, new ConfigError('cors', 'expected an object')]);
 */
export class ConfigErrors extends ConfigError {
  readonly problems: readonly ConfigError[];
  constructor(problems: readonly ConfigError[]) {
    const first = problems[0]!;
    super(first.setting, first.reason);
    this.problems = problems;
  }
}

/**
 * The problems a ConfigError stands for: itself, or each of a ConfigErrors.
 *
 * @example
 * problemsOf(new ConfigError('realm', 'expected a non-empty string')).length; // 1
 */
export function problemsOf(e: ConfigError): readonly ConfigError[] {
  return e instanceof ConfigErrors ? e.problems : [e];
}

/** One error for one or more problems (one alone is thrown as it is). */
function together(problems: readonly ConfigError[]): ConfigError {
  return problems.length === 1 ? problems[0]! : new ConfigErrors(problems);
}

/**
 * The problems found so far: `check` runs one part of the parse and keeps its ConfigErrors
 * (any other error is a bug and goes on up); `throwAny` throws them together.
 *
 * @example
 * const problems = new Problems();
 * const realm = problems.check(() => str(v.realm, 'realm'));
 * problems.throwAny();
 */
export class Problems {
  readonly #found: ConfigError[] = [];

  /** `part()`, or undefined when it found a problem (kept). */
  check<T>(part: () => T): T | undefined {
    try {
      return part();
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      this.#found.push(...problemsOf(e));
      return undefined;
    }
  }

  /** Throw every problem kept, if there is one. */
  throwAny(): void {
    if (this.#found.length > 0) throw together(this.#found);
  }
}

/**
 * `list.map(parse)` with each element checked on its own: the problems of every element,
 * thrown together once all are checked.
 *
 * @example
 * const rules = eachElement(v, (r, i) => parseRule(r, i, issuerNames));
 */
export function eachElement<T>(list: readonly unknown[], parse: (v: unknown, i: number) => T): T[] {
  const problems = new Problems();
  const out = list.map((v, i) => problems.check(() => parse(v, i)));
  problems.throwAny();
  return out as T[];
}

/**
 * Refuse every key of `v` not in `keys`, all of them at once, each named under `setting`
 * ('' for GUARD_CONFIG itself).
 *
 * @example
 * knownKeys({ audiance: 'api' }, 'issuers[0]', new Set(['audience'])); // throws issuers[0].audiance: unknown setting
 */
export function knownKeys(v: Record<string, unknown>, setting: string, keys: ReadonlySet<string>): void {
  const unknown = Object.keys(v).filter((k) => !keys.has(k));
  const named = (k: string): string => (setting === '' ? k : `${setting}.${k}`);
  if (unknown.length > 0) throw together(unknown.map((k) => new ConfigError(named(k), 'unknown setting')));
}
