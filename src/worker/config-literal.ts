// A checked GuardConfig written as a JavaScript expression, for the entry module
// `edgejwt build-guard` writes: the isolate then gets the config as a literal (Sets
// and undefined members included) with no parse, no checks and no revive walk.
// Only what a parsed config holds is accepted (plain objects, arrays, Sets, Maps,
// strings, finite numbers, booleans, null, undefined); anything else throws, so a
// config type that grows a class instance fails the build, not the deploy.

/**
 * The expression that evaluates to a structural copy of `value`.
 *
 * @example
 * configLiteral({ methods: new Set(['GET']), cors: undefined }); // '{"methods":new Set(["GET"]),"cors":undefined}'
 */
export function configLiteral(value: unknown, at = 'config'): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${at}: not a finite number`);
    return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v, i) => configLiteral(v, `${at}[${i}]`)).join(',')}]`;
  if (value instanceof Set) return `new Set([${[...value].map((v, i) => configLiteral(v, `${at}{${i}}`)).join(',')}])`;
  if (value instanceof Map) return `new Map([${[...value].map(([k, v], i) => `[${configLiteral(k, `${at}{${i}}`)},${configLiteral(v, `${at}{${i}}`)}]`).join(',')}])`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    // Property names as JSON strings: "__proto__" then names an own property, as in the parsed object.
    const members = Object.keys(value).map((k) => `${k === '__proto__' ? `["__proto__"]` : JSON.stringify(k)}:${configLiteral((value as Record<string, unknown>)[k], `${at}.${k}`)}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`${at}: not plain data (${Object.prototype.toString.call(value)})`);
}
