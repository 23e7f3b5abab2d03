// forward_header_walk_matches_per_name_reference, shared by test/worker/header-walk.test.ts
// (workerd's Headers) and test/node/header-walk.test.ts (undici's, whose iterator is live:
// a walk that deletes as it goes skips names there). The forwarding stage reads the
// client's header names once (Headers.keys(), own-cost 8915878) and hands that list to
// hop-by-hop and identity stripping, which delete after the walk. Property, in the
// runtime's own Headers: for any client header list (hop-by-hop
// names and identity headers in any case and `_` spelling, several Connection headers
// naming them, duplicates, Cloudflare's fields), what is left equals what the per-name
// reference below leaves (2 gets, a delete per hop-by-hop name, a forEach over the rest:
// the code before the walk), whether the caller passes the names or the functions walk
// the live list themselves, or (the guard since warm-own) names read from the client's request
// once and the scans run on the copy forward.ts builds with its headers.
import fc from 'fast-check';
import { expect } from 'vitest';
import { headerNames } from '../../src/worker/header-names.js';
import { dropHopByHop } from '../../src/worker/stages/forward/hop-by-hop.js';
import { identityHeaders, stripIdentity } from '../../src/worker/request.js';

export const ALWAYS = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding'];
export const OWN = identityHeaders({
  forwardClaims: [
    ['sub', 'X-Auth-Sub'],
    ['scope', 'X-Auth-Scope'],
  ],
  forwardPayload: 'X-Jwt-Payload',
});

/** The reference: the same rules written name by name, no shared walk. */
function reference(h: Headers): void {
  const listed = h.get('connection');
  const upgrade = h.get('upgrade');
  for (const name of ALWAYS) h.delete(name);
  if (listed !== null) {
    for (const raw of listed.split(/[\s,]+/)) {
      const name = raw.toLowerCase();
      const edge =
        name.startsWith('cf-') ||
        name === 'x-forwarded-for' ||
        name === 'x-forwarded-proto' ||
        name === 'true-client-ip';
      if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name) || edge || name === 'upgrade') continue;
      h.delete(name);
    }
  }
  if (upgrade !== null && !upgrade.split(',').some((p) => p.trim().toLowerCase() === 'websocket')) h.delete('upgrade');
  const drop: string[] = [];
  h.forEach((_, name) => {
    if (OWN.names.has(name.toLowerCase().replaceAll('_', '-'))) drop.push(name);
  });
  for (const name of drop) h.delete(name);
}

/** Every name and value left, in Headers order. */
export function entries(h: Headers): string[] {
  const out: string[] = [];
  h.forEach((v, n) => out.push(`${n}: ${v}`));
  return out;
}

/** A name in random letter case, `-` sometimes spelled `_`. */
const spelled = (name: string): fc.Arbitrary<string> =>
  fc
    .tuple(fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }), fc.boolean())
    .map(([up, under]) => {
      const cased = [...name].map((c, i) => (up[i] ? c.toUpperCase() : c)).join('');
      return under ? cased.replaceAll('-', '_') : cased;
    });

const POOL = [
  ...ALWAYS,
  'upgrade',
  'x-auth-sub',
  'x-auth-scope',
  'x-jwt-payload',
  'x-auth-subx',
  'authorization',
  'cf-connecting-ip',
  'x-forwarded-for',
  'true-client-ip',
  'set-cookie',
  'cookie',
  'x-a',
  'x-b',
  'accept',
];
const name = fc.oneof(fc.constantFrom(...POOL).chain(spelled), fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/));
const value = (n: string): fc.Arbitrary<string> =>
  n.toLowerCase() === 'connection'
    ? fc
        .array(fc.oneof(fc.constantFrom(...POOL).chain(spelled), fc.constantFrom('close', 'Upgrade', ';x', '"x-a"')), {
          maxLength: 5,
        })
        .chain((ns) => fc.constantFrom(',', ', ', ' ').map((sep) => ns.join(sep)))
    : n.toLowerCase() === 'upgrade'
      ? fc.constantFrom('websocket', 'WebSocket', 'h2c', 'h2c, websocket', '')
      : fc.stringMatching(/^[ -~]{0,12}$/).map((s) => s.trim());
const headerList = fc.array(
  name.chain((n) => value(n).map((v) => [n, v] as [string, string])),
  { maxLength: 14 },
);

/** The property: `runs` header lists, each stripped three ways (reference, one snapshot, live walks). */
export function checkHeaderWalk(runs: number, seed: number): void {
  fc.assert(
    fc.property(headerList, (list) => {
      const make = () => {
        const h = new Headers();
        for (const [n, v] of list) h.append(n, v);
        return h;
      };
      const want = make();
      reference(want);
      // As forward.ts does it: one snapshot of the names for both.
      const walked = make();
      const names = [...headerNames(walked)];
      dropHopByHop(walked, names);
      stripIdentity(walked, OWN, names);
      expect(entries(walked)).toEqual(entries(want));
      // Each function over the live list (their default): nothing skipped while deleting.
      const live = make();
      dropHopByHop(live);
      stripIdentity(live, OWN);
      expect(entries(live)).toEqual(entries(want));
      // As the guard does it since warm-own: the names read once from the client's request
      // (the route stage's walk, route.ts), the scans run on forward.ts's copy of its headers.
      for (const post of [false, true]) {
        const client = new Request('https://guard.invalid/x', {
          method: post ? 'POST' : 'GET',
          headers: make(),
          ...(post ? { body: 'b' } : {}),
        });
        const routeNames = [...headerNames(client.headers)];
        const copy = new Request('https://origin.invalid/x', {
          method: client.method,
          headers: client.headers,
          body: client.body,
          redirect: 'manual',
          ...(post ? { duplex: 'half' } : {}),
        } as RequestInit).headers;
        const wantCopy = new Headers(client.headers);
        reference(wantCopy);
        dropHopByHop(copy, routeNames);
        stripIdentity(copy, OWN, routeNames);
        expect(entries(copy)).toEqual(entries(wantCopy));
      }
      // Nothing hop-by-hop or identity-spelled is left, whatever the reference says.
      for (const n of headerNames(walked)) {
        expect(ALWAYS.includes(n), n).toBe(false);
        expect(OWN.names.has(n.replaceAll('_', '-')), n).toBe(false);
      }
    }),
    { numRuns: runs, seed },
  );
}

/** Adjacent identity spellings and Connection-listed names: removed whole, none skipped. */
export function checkAdjacentRuns(): void {
  const h = new Headers();
  for (const n of [
    'X-Auth-Sub',
    'X_Auth_Sub',
    'x-auth_sub',
    'X_AUTH-SUB',
    'x-auth-scope',
    'X_Auth_Scope',
    'x-jwt-payload',
    'X_JWT_PAYLOAD',
  ])
    h.append(n, 'forged');
  stripIdentity(h, OWN);
  expect(entries(h)).toEqual([]);
  const hop = new Headers({
    connection: 'x-a, x-b, x-c, x-d',
    'x-a': '1',
    'x-b': '2',
    'x-c': '3',
    'x-d': '4',
    'keep-alive': '1',
    te: 'trailers',
    trailer: 'x',
    'transfer-encoding': 'chunked',
    'proxy-connection': 'close',
  });
  dropHopByHop(hop);
  expect(entries(hop)).toEqual([]);
}
