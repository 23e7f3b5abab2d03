// The subset of Vitest's API the shared corpus uses (describe/it/expect and
// hooks), for runtimes where Vitest itself does not run: Node 20, Deno, Bun and
// browsers. The corpus bundle aliases 'vitest' to this file; `run()` executes
// the collected tests in order and returns the counts.

type Fn = () => unknown | Promise<unknown>;

interface Suite {
  name: string;
  children: (Suite | Test)[];
  beforeAll: Fn[];
  afterAll: Fn[];
  beforeEach: Fn[];
  afterEach: Fn[];
}

interface Test {
  name: string;
  fn: Fn;
  skip: boolean;
}

const root: Suite = { name: '', children: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] };
let current = root;

function format(name: string, row: unknown[]): string {
  let i = 0;
  return name.replace(/%[sdijo#%]/g, (m) => (m === '%%' ? '%' : m === '%#' ? String(i) : String(row[i++])));
}

function addSuite(name: string, body: () => void): void {
  const suite: Suite = { name, children: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] };
  current.children.push(suite);
  const parent = current;
  current = suite;
  try {
    body();
  } finally {
    current = parent;
  }
}

type Each = <T>(table: readonly T[]) => (name: string, fn: (...args: any[]) => unknown) => void;

function rowArgs(row: unknown): unknown[] {
  return Array.isArray(row) ? row : [row];
}

export const describe = Object.assign(addSuite, {
  each: ((table: readonly unknown[]) => (name: string, fn: (...args: unknown[]) => void) => {
    for (const row of table) addSuite(format(name, rowArgs(row)), () => fn(...rowArgs(row)));
  }) as Each,
  skip: (name: string, _body: () => void) => {
    current.children.push({ name, fn: () => undefined, skip: true });
  },
});

function addTest(name: string, fn: Fn, _timeout?: number): void {
  current.children.push({ name, fn, skip: false });
}

export const it = Object.assign(addTest, {
  each: ((table: readonly unknown[]) => (name: string, fn: (...args: unknown[]) => unknown) => {
    for (const row of table) addTest(format(name, rowArgs(row)), () => fn(...rowArgs(row)));
  }) as Each,
  skip: (name: string, _fn?: Fn) => {
    current.children.push({ name, fn: () => undefined, skip: true });
  },
});
export const test = it;

export function beforeAll(fn: Fn): void {
  current.beforeAll.push(fn);
}
export function afterAll(fn: Fn): void {
  current.afterAll.push(fn);
}
export function beforeEach(fn: Fn): void {
  current.beforeEach.push(fn);
}
export function afterEach(fn: Fn): void {
  current.afterEach.push(fn);
}

// ---- expect ----

class AssertionError extends Error {
  override name = 'AssertionError';
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 200 ? value.slice(0, 200) + '…' : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    const s = JSON.stringify(value);
    return s === undefined ? String(value) : s.length > 200 ? s.slice(0, 200) + '…' : s;
  } catch {
    return String(value);
  }
}

function deepEqual(a: unknown, b: unknown, strict: boolean): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    return x.length === y.length && x.every((v, i) => v === y[i]);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  const keysA = Object.keys(a).filter((k) => strict || (a as Record<string, unknown>)[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => strict || (b as Record<string, unknown>)[k] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], strict));
}

function matchesObject(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null)
    return Object.is(actual, expected) || deepEqual(actual, expected, false);
  if (typeof actual !== 'object' || actual === null) return false;
  if (Array.isArray(expected)) return deepEqual(actual, expected, false);
  return Object.entries(expected).every(([k, v]) => matchesObject((actual as Record<string, unknown>)[k], v));
}

function thrownMatches(error: unknown, expected: unknown): boolean {
  if (expected === undefined) return true;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof expected === 'string') return message.includes(expected);
  if (expected instanceof RegExp) return expected.test(message);
  if (typeof expected === 'function') return error instanceof (expected as new (...a: unknown[]) => unknown);
  if (typeof expected === 'object' && expected !== null) return matchesObject(error, expected);
  return false;
}

type Matchers = Record<string, (...args: any[]) => any>;

function matchers(actual: unknown, negate: boolean, label?: string): Matchers {
  const check = (pass: boolean, what: string): void => {
    if (pass === negate) {
      throw new AssertionError(`${label ? label + ': ' : ''}expected ${show(actual)} ${negate ? 'not ' : ''}${what}`);
    }
  };
  return {
    toBe: (v: unknown) => check(Object.is(actual, v), `to be ${show(v)}`),
    toEqual: (v: unknown) => check(deepEqual(actual, v, false), `to equal ${show(v)}`),
    toStrictEqual: (v: unknown) => check(deepEqual(actual, v, true), `to strictly equal ${show(v)}`),
    toBeTruthy: () => check(Boolean(actual), 'to be truthy'),
    toBeFalsy: () => check(!actual, 'to be falsy'),
    toBeNull: () => check(actual === null, 'to be null'),
    toBeUndefined: () => check(actual === undefined, 'to be undefined'),
    toBeDefined: () => check(actual !== undefined, 'to be defined'),
    toBeNaN: () => check(Number.isNaN(actual), 'to be NaN'),
    toBeInstanceOf: (c: new (...a: unknown[]) => unknown) =>
      check(actual instanceof c, `to be an instance of ${c.name}`),
    toBeTypeOf: (t: string) => check(typeof actual === t, `to be of type ${t}`),
    toBeGreaterThan: (n: number) => check((actual as number) > n, `to be > ${n}`),
    toBeGreaterThanOrEqual: (n: number) => check((actual as number) >= n, `to be >= ${n}`),
    toBeLessThan: (n: number) => check((actual as number) < n, `to be < ${n}`),
    toBeLessThanOrEqual: (n: number) => check((actual as number) <= n, `to be <= ${n}`),
    toMatch: (p: string | RegExp) =>
      check(
        typeof actual === 'string' && (typeof p === 'string' ? actual.includes(p) : p.test(actual)),
        `to match ${String(p)}`,
      ),
    toContain: (v: unknown) =>
      check(
        (typeof actual === 'string' && typeof v === 'string' && actual.includes(v)) ||
          (Array.isArray(actual) && actual.includes(v)),
        `to contain ${show(v)}`,
      ),
    toContainEqual: (v: unknown) =>
      check(
        Array.isArray(actual) && actual.some((x) => deepEqual(x, v, false)),
        `to contain an element equal to ${show(v)}`,
      ),
    toHaveLength: (n: number) => check((actual as { length?: number })?.length === n, `to have length ${n}`),
    toHaveProperty: (key: string, value?: unknown) => {
      const has = actual !== null && actual !== undefined && key in Object(actual);
      check(
        has && (value === undefined || deepEqual((actual as Record<string, unknown>)[key], value, false)),
        `to have property ${key}`,
      );
    },
    toMatchObject: (v: unknown) => check(matchesObject(actual, v), `to match object ${show(v)}`),
    toThrow: (expected?: unknown) => {
      let threw = false;
      let error: unknown;
      try {
        (actual as () => unknown)();
      } catch (e) {
        threw = true;
        error = e;
      }
      check(threw && thrownMatches(error, expected), `to throw${expected === undefined ? '' : ' ' + show(expected)}`);
    },
  };
}

function promiseMatchers(promise: unknown, mode: 'resolves' | 'rejects', negate: boolean, label?: string): Matchers {
  const base = matchers(undefined, negate, label);
  const out: Matchers = {};
  for (const name of Object.keys(base)) {
    out[name] = async (...args: unknown[]) => {
      let value: unknown;
      let rejected = false;
      try {
        value = await promise;
      } catch (e) {
        value = e;
        rejected = true;
      }
      if (mode === 'rejects' && !rejected)
        throw new AssertionError(`${label ? label + ': ' : ''}expected promise to reject`);
      if (mode === 'resolves' && rejected)
        throw new AssertionError(
          `${label ? label + ': ' : ''}expected promise to resolve, it rejected with ${show(value)}`,
        );
      if (name === 'toThrow')
        return matchers(
          () => {
            throw value;
          },
          negate,
          label,
        ).toThrow!(...args);
      return matchers(value, negate, label)[name]!(...args);
    };
  }
  return out;
}

function makeExpect(
  actual: unknown,
  label?: string,
): Matchers & { not: Matchers; resolves: Matchers & { not: Matchers }; rejects: Matchers & { not: Matchers } } {
  return Object.assign(matchers(actual, false, label), {
    not: matchers(actual, true, label),
    resolves: Object.assign(promiseMatchers(actual, 'resolves', false, label), {
      not: promiseMatchers(actual, 'resolves', true, label),
    }),
    rejects: Object.assign(promiseMatchers(actual, 'rejects', false, label), {
      not: promiseMatchers(actual, 'rejects', true, label),
    }),
  });
}

export const expect = Object.assign(makeExpect, {
  // Soft assertions fail the test at once here; the verdict is the same.
  soft: makeExpect,
  fail: (message?: string): never => {
    throw new AssertionError(message ?? 'expect.fail');
  },
});

// ---- runner ----

export interface Outcome {
  passed: number;
  failed: number;
  skipped: number;
  failures: { name: string; error: string }[];
  /** The slowest tests, slowest first: where this runtime's time goes. */
  slowest: { name: string; ms: number }[];
}

async function runSuite(
  suite: Suite,
  path: string[],
  hooks: { before: Fn[]; after: Fn[] },
  out: Outcome,
  log: (line: string) => void,
): Promise<void> {
  const before = [...hooks.before, ...suite.beforeEach];
  const after = [...suite.afterEach, ...hooks.after];
  for (const fn of suite.beforeAll) await fn();
  for (const child of suite.children) {
    if ('children' in child) {
      await runSuite(child, [...path, child.name], { before, after }, out, log);
      continue;
    }
    const name = [...path, child.name].filter(Boolean).join(' > ');
    if (child.skip) {
      out.skipped++;
      continue;
    }
    const started = Date.now();
    try {
      for (const fn of before) await fn();
      await child.fn();
      for (const fn of after) await fn();
      out.passed++;
      keepSlowest(out.slowest, { name, ms: Date.now() - started });
    } catch (e) {
      out.failed++;
      const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      out.failures.push({ name, error });
      log(`FAIL ${name}\n     ${error}`);
    }
  }
  for (const fn of suite.afterAll) await fn();
}

const SLOWEST = 5;
function keepSlowest(list: { name: string; ms: number }[], entry: { name: string; ms: number }): void {
  list.push(entry);
  list.sort((a, b) => b.ms - a.ms);
  list.length = Math.min(list.length, SLOWEST);
}

/** Run every collected test in order; `log` receives one line per failure. */
export async function run(log: (line: string) => void = console.log): Promise<Outcome> {
  const out: Outcome = { passed: 0, failed: 0, skipped: 0, failures: [], slowest: [] };
  await runSuite(root, [], { before: [], after: [] }, out, log);
  return out;
}
