// Property tests (fast-check) of the guard's path decision, through the whole
// guard: for random rule sets and random spellings of a protected path, a token
// without the rule's scope never reaches the origin; for random paths, whatever
// does reach the origin is outside every rule as nginx (merge_slashes on),
// Express, Spring and an IIS-style case-insensitive origin would each resolve
// it; with rules in random order and auth modes ("none" or a scope), what a token
// without the scope gets to the origin falls first under a "none" rule (first
// match wins) or under no rule, as each of them resolves it; and every forwarded
// request goes to the configured origin.
//
// A fixed-seed sample runs by default (CI); for a longer local run:
//   EDGEJWT_PROPERTY_RUNS=5000 EDGEJWT_PROPERTY_SEED=42 npx vitest run --config vitest.workerd.config.ts
// test/worker/stages/path/path-properties.test.ts
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ORIGIN, baseConfig, demoKeys, makeGuard, token, type Keys } from '../../harness.js';

declare module 'vitest' {
  export interface ProvidedContext {
    propertyRuns: string;
    propertySeed: string;
  }
}

const RUNS = Number(inject('propertyRuns')) || 300;
const SEED = Number(inject('propertySeed')) || 20261123;
const params = { numRuns: RUNS, seed: SEED };

let k: Keys;
let readToken: string;
let adminToken: string;
beforeAll(async () => {
  k = await demoKeys();
  readToken = await token(k.hs, { scope: 'read' });
  adminToken = await token(k.hs, { scope: 'read admin' });
});

// ---- Origin models: how each kind of origin turns the path it receives into a route.

/** Every %XX decoded to its byte (as a Latin-1 character); a broken escape stays as it is. */
function decodeAll(p: string): string {
  return p.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function mergeSlashes(p: string): string {
  return p.replace(/\/+/g, '/');
}

/** RFC 3986 §5.2.4 remove_dot_segments, on an absolute path. */
function removeDots(p: string): string {
  const out: string[] = [];
  const segs = p.split('/').slice(1);
  for (const [i, s] of segs.entries()) {
    const last = i === segs.length - 1;
    if (s === '.' || s === '..') {
      if (s === '..') out.pop();
      if (last) out.push('');
    } else out.push(s);
  }
  return `/${out.join('/')}`;
}

interface OriginModel {
  name: string;
  caseInsensitive: boolean;
  resolve(path: string): string;
}

const MODELS: OriginModel[] = [
  // nginx: decodes the URI, merges slashes (merge_slashes on), resolves dot segments; case matters.
  { name: 'nginx', caseInsensitive: false, resolve: (p) => removeDots(mergeSlashes(decodeAll(p))) },
  // Express: routes on the path as sent (no decoding, no merging), case-insensitive by default.
  { name: 'express', caseInsensitive: true, resolve: (p) => p },
  // Spring: drops ;params, then decodes, merges slashes and resolves dot segments; case matters.
  {
    name: 'spring',
    caseInsensitive: false,
    resolve: (p) => removeDots(mergeSlashes(decodeAll(p.replace(/;[^/]*/g, '')))),
  },
  // IIS-style: decodes, reads \ as /, merges, resolves dots, ignores case.
  { name: 'iis', caseInsensitive: true, resolve: (p) => removeDots(mergeSlashes(decodeAll(p).replaceAll('\\', '/'))) },
];

/** Would `model` route `path` under the rule prefix? (`/admin/` also covers `/admin`.) */
function routedUnder(model: OriginModel, prefix: string, path: string): boolean {
  let r = model.resolve(path);
  let p = prefix;
  if (model.caseInsensitive) {
    r = r.toLowerCase();
    p = p.toLowerCase();
  }
  return r.startsWith(p) || `${r}/` === p;
}

// ---- Generators.

const WORDS = ['admin', 'api', 'v1', 'Internal', 'reports'];

/** A rule prefix: one or two words, with or without a trailing slash. */
const prefixArb = fc
  .tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }), fc.boolean())
  .map(([words, slash]) => `/${words.join('/')}${slash ? '/' : ''}`);

const pathsOptionsArb = fc.record({
  escapedSlashes: fc.constantFrom('reject', 'decode'),
  forward: fc.constantFrom('canonical', 'received'),
});

/** Spell one character of a path segment another way: as it is, case flipped, or percent-encoded. */
const charSpelling = (c: string): fc.Arbitrary<string> => {
  const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
  const options = [c, c.toUpperCase(), c.toLowerCase(), `%${hex.toUpperCase()}`, `%${hex.toLowerCase()}`];
  return fc.constantFrom(...options);
};

/** A separator `/` spelt as a repeated slash, a backslash, a dot segment, or an encoded slash. */
const separatorArb = fc.constantFrom(
  '/',
  '/',
  '//',
  '///',
  '\\',
  '/\\',
  '/./',
  '/%2e/',
  '/zz/../',
  '/zz/%2E%2E/',
  '%2F',
  '%5C',
  '%2f',
);

/** A random spelling of `path` (which starts with `/`). */
function spellingOf(path: string): fc.Arbitrary<string> {
  const segments = path.split('/').slice(1);
  const seg = (s: string) =>
    fc
      .tuple(fc.tuple(...[...s].map(charSpelling)), fc.constantFrom('', '', ';', ';p=1', ';jsessionid=x'))
      .map(([chars, param]) => (s === '' ? '' : chars.join('') + param));
  return fc
    .tuple(
      fc.tuple(...segments.map((s) => fc.tuple(separatorArb, seg(s)))),
      fc.constantFrom('', '/', '//', '/.', '/;x'),
    )
    .map(([parts, tail]) => {
      const body = parts.map(([sep, s]) => sep + s).join('');
      // The first separator must still start the path.
      return (body.startsWith('/') || body.startsWith('\\') ? body : `/${body}`) + tail;
    });
}

/** A rule set and one path under one of its rules, spelt some random way. */
const protectedCase = fc
  .tuple(
    fc.array(prefixArb, { minLength: 1, maxLength: 3 }),
    fc.nat(),
    fc.array(fc.constantFrom('x', 'doc', 'Y'), { maxLength: 2 }),
    pathsOptionsArb,
  )
  .chain(([prefixes, pick, tail, paths]) => {
    const prefix = prefixes[pick % prefixes.length]!;
    const path = prefix.endsWith('/') ? prefix + tail.join('/') : [prefix, ...tail].join('/');
    return spellingOf(path).map((spelling) => ({ prefixes, paths, spelling }));
  });

/** Any path built from pieces that matter to some origin. */
const anyPathArb = fc
  .array(
    fc.constantFrom(
      '/',
      '//',
      '\\',
      'admin',
      'Admin',
      'ADMIN',
      'api',
      'v1',
      'x',
      'dmin',
      'a',
      '%2F',
      '%2f',
      '%5C',
      '%61',
      '%41',
      '%64',
      '%2e',
      '%2E',
      '.',
      '..',
      ';',
      ';p=1',
      '%3B',
      '%00',
      '%zz',
      '%',
      '~',
      '%7E',
      '%25',
    ),
    { maxLength: 12 },
  )
  .map((parts) => `/${parts.join('')}`);

function configFor(prefixes: string[], paths: Record<string, unknown>): Record<string, unknown> {
  return baseConfig(k, {
    publicPaths: ['/health'],
    rules: prefixes.map((pathPrefix) => ({ pathPrefix, scopes: ['admin'] })),
    paths,
  });
}

async function send(g: Awaited<ReturnType<typeof makeGuard>>, spelling: string, t: string): Promise<Response> {
  return g.guard.handle(
    new Request(`https://api.example.com${spelling}`, { headers: { authorization: `Bearer ${t}` } }),
    { waitUntil: () => undefined },
  );
}

function originCalls(g: Awaited<ReturnType<typeof makeGuard>>): URL[] {
  return g.net.calls.map((c) => new URL(c.url));
}

describe(`guard path decision (fast-check, seed ${SEED}, ${RUNS} runs)`, () => {
  it(
    "no spelling of a protected path reaches the origin without the rule's scope; with it, only the origin is " +
      'asked',
    async () => {
      await fc.assert(
        fc.asyncProperty(protectedCase, async ({ prefixes, paths, spelling }) => {
          const g = await makeGuard(k, { config: configFor(prefixes, paths) });
          const denied = await send(g, spelling, readToken);
          expect([400, 403], spelling).toContain(denied.status);
          expect(originCalls(g)).toEqual([]);
          // Control: the same spelling with the scope is forwarded (or refused as unreadable), never 403.
          const allowed = await send(g, spelling, adminToken);
          expect([200, 400], spelling).toContain(allowed.status);
          for (const u of originCalls(g)) expect(u.origin).toBe(ORIGIN);
        }),
        params,
      );
    },
  );

  it('whatever reaches the origin is outside every rule as nginx, Express, Spring and IIS resolve it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(prefixArb, { minLength: 1, maxLength: 3 }),
        anyPathArb,
        pathsOptionsArb,
        async (prefixes, path, paths) => {
          const g = await makeGuard(k, { config: configFor(prefixes, paths) });
          const res = await send(g, path, readToken);
          expect([200, 400, 403], path).toContain(res.status);
          for (const u of originCalls(g)) {
            expect(u.origin).toBe(ORIGIN);
            // The path exactly as it goes on the wire to the origin.
            const sent = u.pathname;
            for (const model of MODELS) {
              for (const prefix of prefixes)
                expect(routedUnder(model, prefix, sent), `${model.name}: ${path} -> ${sent} under ${prefix}`).toBe(
                  false,
                );
            }
          }
        },
      ),
      params,
    );
  });

  it(
    'first match wins (rules with auth "none" and a scope, in random order): what reaches the origin with a ' +
      'token without the scope falls, as every origin resolves it, first under a "none" rule or under none at all',
    async () => {
      // Rules, and a path: a random spelling of a path under one of them, or any path.
      const caseArb = fc
        .tuple(
          fc.array(fc.tuple(prefixArb, fc.boolean()), { minLength: 1, maxLength: 4 }),
          fc.nat(),
          fc.array(fc.constantFrom('x', 'doc', 'Y'), { maxLength: 2 }),
        )
        .chain(([rules, pick, tail]) => {
          const prefix = rules[pick % rules.length]![0];
          const under = prefix.endsWith('/') ? prefix + tail.join('/') : [prefix, ...tail].join('/');
          return fc.tuple(fc.constant(rules), fc.oneof(spellingOf(under), anyPathArb));
        });
      await fc.assert(
        fc.asyncProperty(caseArb, pathsOptionsArb, async ([rules, path], paths) => {
          const config = baseConfig(k, {
            publicPaths: ['/health'],
            rules: rules.map(([pathPrefix, open]) =>
              open ? { pathPrefix, auth: 'none' } : { pathPrefix, scopes: ['admin'] },
            ),
            paths,
          });
          const g = await makeGuard(k, { config });
          const res = await send(g, path, readToken);
          expect([200, 400, 403], path).toContain(res.status);
          for (const u of originCalls(g)) {
            expect(u.origin).toBe(ORIGIN);
            for (const model of MODELS) {
              const first = rules.find(([prefix]) => routedUnder(model, prefix, u.pathname));
              expect(
                first === undefined || first[1],
                `${model.name}: ${path} -> ${u.pathname} first under ${first?.[0]}`,
              ).toBe(true);
            }
          }
        }),
        params,
      );
    },
  );

  it('paths.caseSensitive: true still holds for the case-sensitive origins (nginx, Spring)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(prefixArb, { minLength: 1, maxLength: 3 }),
        anyPathArb,
        pathsOptionsArb,
        async (prefixes, path, paths) => {
          const g = await makeGuard(k, { config: configFor(prefixes, { ...paths, caseSensitive: true }) });
          await send(g, path, readToken);
          for (const u of originCalls(g)) {
            expect(u.origin).toBe(ORIGIN);
            for (const model of MODELS.filter((m) => !m.caseInsensitive)) {
              for (const prefix of prefixes)
                expect(
                  routedUnder(model, prefix, u.pathname),
                  `${model.name}: ${path} -> ${u.pathname} under ${prefix}`,
                ).toBe(false);
            }
          }
        },
      ),
      { ...params, numRuns: Math.max(1, Math.floor(RUNS / 3)) },
    );
  });
});
