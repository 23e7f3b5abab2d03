// Hop-by-hop fields never reach the origin (RFC 9110 §7.6.1): a client's `Connection`
// header cannot nominate the guard's identity headers for removal by a later hop.
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { dropHopByHop } from '../../../../src/worker/stages/forward/hop-by-hop.js';
import { assertionKeyJson, baseConfig, demoKeys, makeGuard, token, type Keys, type Made } from '../../harness.js';

const RUNS = Math.min(Number(inject('propertyRuns')) || 200, 1000);
const SEED = Number(inject('propertySeed')) || 20261127;

const HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding'];
const OWN = ['x-auth-sub', 'x-auth-scope', 'x-jwt-payload', 'x-edgejwt-assertion'];

let k: Keys;
let g: Made;
let bearerToken: string;

beforeAll(async () => {
  k = await demoKeys();
  g = await makeGuard(k, {
    config: baseConfig(k, {
      forwardToken: true,
      forwardPayload: 'X-Jwt-Payload',
      originAssertion: {
        header: 'X-Edgejwt-Assertion',
        alg: 'EdDSA',
        ttl: 60,
        claims: ['sub'],
        keyBinding: 'ASSERTION_KEY',
      },
    }),
    env: { ASSERTION_KEY: await assertionKeyJson() },
  });
  bearerToken = await token(k.hs, { sub: 'alice' });
});

const seen = async (res: Response): Promise<Record<string, string>> =>
  ((await res.json()) as { headers: Record<string, string> }).headers;

/** The header names left, sorted. */
function names(h: Headers): string[] {
  const out: string[] = [];
  h.forEach((_, name) => out.push(name));
  return out.sort();
}

/** An RFC 9110 §7.6.1 intermediary after the guard: drops Connection and every field it lists. */
function nextHop(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  for (const name of (headers.connection ?? '').split(',')) delete out[name.trim().toLowerCase()];
  delete out.connection;
  return out;
}

/** A header name in random letter case. */
const anyCase = (name: string): fc.Arbitrary<string> =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((up) => [...name].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));

describe('hop-by-hop fields', () => {
  it(
    'connection_cannot_drop_identity_headers: whatever Connection lists, the origin gets the guard-set ' +
      'identity headers and no hop-by-hop field (property)',
    async () => {
      const nominee = fc.oneof(
        fc.constantFrom(...OWN, 'authorization', 'close', 'keep-alive', 'upgrade', 'x-extra', 'te').chain(anyCase),
        fc.stringMatching(/^x-[a-z0-9-]{1,12}$/),
      );
      const separator = fc.constantFrom(',', ', ', ' ,', ' ', ',,', ' , ');
      // Any number of Connection headers, each listing names between arbitrary separators.
      const connections = fc.array(fc.tuple(fc.array(nominee, { minLength: 1, maxLength: 6 }), separator), {
        minLength: 1,
        maxLength: 3,
      });
      await fc.assert(
        fc.asyncProperty(connections, async (lists) => {
          const headers = new Headers({
            authorization: `Bearer ${bearerToken}`,
            'keep-alive': 'timeout=5',
            te: 'trailers',
            trailer: 'x-extra',
            'proxy-connection': 'keep-alive',
            'x-extra': '1',
          });
          for (const [names, sep] of lists) headers.append('connection', names.join(sep));
          // The client's own copies of the guard's headers, as a forger would send them.
          for (const h of OWN) headers.set(h, 'forged');
          const res = await g.send('/x', { headers });
          expect(res.status).toBe(200);
          // What an HTTP/1.1 hop after the guard that follows RFC 9110 §7.6.1 passes on.
          const raw = await seen(res);
          for (const h of HOP) expect(raw[h], h).toBeUndefined();
          const got = nextHop(raw);
          expect(got['x-auth-sub']).toBe('alice');
          expect(got['x-auth-scope']).toBe('read');
          expect(got['x-jwt-payload']).toMatch(/^[A-Za-z0-9_-]{20,}$/);
          expect(got['x-edgejwt-assertion']?.split('.')).toHaveLength(3);
          // Nominated by some Connection header: gone too (the guard's own ones are set again after).
          const nominated = new Set(lists.flatMap(([names]) => names.map((n) => n.toLowerCase())));
          if (nominated.has('x-extra')) expect(got['x-extra']).toBeUndefined();
          if (nominated.has('authorization')) expect(got['authorization']).toBeUndefined();
          else expect(got['authorization']).toBe(`Bearer ${bearerToken}`);
        }),
        { numRuns: Math.min(RUNS, 300), seed: SEED },
      );
    },
  );

  it(
    'connection_cannot_drop_identity_headers: the same on a public path, and a listed field is dropped before ' +
      'a later hop sees it',
    async () => {
      const got = await seen(
        await g.send('/health', {
          headers: { connection: 'close, X-Keep, x-other', 'x-keep': '1', 'x-other': '2', 'x-stays': '3' },
        }),
      );
      expect(got['x-keep']).toBeUndefined();
      expect(got['x-other']).toBeUndefined();
      expect(got['x-stays']).toBe('3');
      expect(got.connection).toBeUndefined();
    },
  );

  it('keeps Upgrade for a WebSocket upgrade only, and never fields Cloudflare added after the client hop', () => {
    const ws = new Headers({
      connection: 'Upgrade, cf-connecting-ip, X-Forwarded-For',
      upgrade: 'websocket',
      'cf-connecting-ip': '192.0.2.1',
      'x-forwarded-for': '192.0.2.1',
    });
    dropHopByHop(ws);
    expect(names(ws)).toEqual(['cf-connecting-ip', 'upgrade', 'x-forwarded-for']);
    const h2c = new Headers({
      connection: 'Upgrade, HTTP2-Settings',
      upgrade: 'h2c',
      'http2-settings': 'AAMAAABkAAQAAP__',
    });
    dropHopByHop(h2c);
    expect(names(h2c)).toEqual([]);
    // Not field names: nothing else is touched.
    const odd = new Headers({ connection: ' , ;; , "x-a"', 'x-a': '1' });
    dropHopByHop(odd);
    expect(names(odd)).toEqual(['x-a']);
  });
});
