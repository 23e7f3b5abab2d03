// Method-override headers never get a request past a method rule (issue 22,
// item 5): refused in every spelling (letter case, `_` for `-`) and with any value.
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseConfig, demoKeys, makeGuard, token, type Keys } from '../../harness.js';

const RUNS = Math.min(Number(inject('propertyRuns')) || 200, 1000);
const SEED = Number(inject('propertySeed')) || 20261127;
const params = { numRuns: RUNS, seed: SEED };

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

describe('method-override headers', () => {
  const NAMES = ['x-http-method-override', 'x-http-method', 'x-method-override'];
  /** Any letter case, and `-` or `_` at each separator. */
  const spelling = fc
    .constantFrom(...NAMES)
    .chain((name) =>
      fc.tuple(
        ...[...name].map((c) =>
          c === '-'
            ? fc.constantFrom('-', '_')
            : /[a-z]/.test(c)
              ? fc.constantFrom(c, c.toUpperCase())
              : fc.constant(c),
        ),
      ),
    )
    .map((cs) => cs.join(''));
  const value = fc.oneof(
    fc.constantFrom('DELETE', 'delete', 'PUT', 'GET', ''),
    fc.string({ unit: fc.constantFrom('A', 'e', 'T', ' ', ','), maxLength: 8 }),
  );

  it(
    'method_override_never_passes_method_rule: refused in every spelling, with any value, before any rule or ' +
      'public path',
    async () => {
      // GET is open, DELETE needs orders:write: a GET that says DELETE must never reach the origin.
      const g = await makeGuard(k, {
        config: baseConfig(k, {
          rules: [
            { pathPrefix: '/orders/', methods: ['GET'], auth: 'none' },
            { pathPrefix: '/orders/', methods: ['DELETE'], scopes: ['orders:write'] },
          ],
        }),
      });
      const t = await token(k.hs, { scope: 'read' });
      await fc.assert(
        fc.asyncProperty(
          spelling,
          value,
          fc.constantFrom('/orders/1', '/health', '/x'),
          fc.boolean(),
          async (name, v, path, withToken) => {
            const before = g.net.calls.length;
            const headers: Record<string, string> = { [name]: v };
            if (withToken) headers.authorization = `Bearer ${t}`;
            const res = await g.send(path, { method: 'GET', headers });
            expect(res.status).toBe(400);
            expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
            expect(g.net.calls.length).toBe(before);
          },
        ),
        params,
      );
      // Without one, the same requests go through as before.
      expect((await g.send('/orders/1')).status).toBe(200);
      expect(g.guard.counters.get('rejected:method_override')).toBeGreaterThan(0);
    },
  );
});

describe('method-override query parameter', () => {
  // How a client can spell `_method` so that some origin's parser reads it back as
  // `_method`: letters escaped or not, any case, PHP's renaming of ` `/`.`/`[`.
  const escapedChar = (c: string) =>
    fc.constantFrom(
      c,
      c.toUpperCase(),
      `%${c.charCodeAt(0).toString(16)}`,
      `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
  // PHP drops leading spaces, then reads ` ` and `.` as `_`: ` _method` and `.method` are `_method` there.
  const leading = fc.constantFrom('_', '%5f', '%5F', '.', '%2e', '%2E', ' _', '+_', '+.', '%20.');
  const spelling = fc
    .tuple(leading, ...[...'method'].map(escapedChar), fc.constantFrom('', '[]', '[0]'))
    .map((cs) => cs.join(''));
  const value = fc.constantFrom('DELETE', 'delete', 'PUT', '');
  const others = fc.array(fc.constantFrom('a=1', 'method=x', 'b', '_methods=1', 'x_method=DELETE'), { maxLength: 3 });

  it(
    'method_override_query_param_refused: `?_method=DELETE` in every spelling an origin reads as _method is a ' +
      '400 before any rule',
    async () => {
      // POST is open, DELETE needs orders:write: a POST whose query says DELETE must never reach the origin.
      const g = await makeGuard(k, {
        config: baseConfig(k, {
          rules: [
            { pathPrefix: '/orders/', methods: ['POST'], auth: 'none' },
            { pathPrefix: '/orders/', methods: ['DELETE'], scopes: ['orders:write'] },
          ],
        }),
      });
      await fc.assert(
        fc.asyncProperty(spelling, value, others, fc.constantFrom('&', ';'), async (name, v, rest, sep) => {
          const before = g.net.calls.length;
          const query = [...rest, `${name}=${v}`].join(sep);
          const res = await g.send(`/orders/1?${query}`, { method: 'POST' });
          expect(res.status, query).toBe(400);
          expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
          expect(g.net.calls.length).toBe(before);
        }),
        params,
      );
      // Names that only contain the word pass, as does the same POST without the parameter.
      for (const q of ['', '?method=DELETE', '?_methods=DELETE', '?x_method=DELETE', '?a=_method', '?q=%5Fmethod']) {
        expect((await g.send(`/orders/1${q}`, { method: 'POST' })).status, q).toBe(200);
      }
      expect(g.guard.counters.get('rejected:method_override')).toBeGreaterThan(0);
    },
  );
});
