// Each stage of the guard's chain (src/worker/guard.ts) on its own: its config
// section parsed by its own module, and its step run on a RequestContext without
// the rest of the guard. The whole guard's behaviour is covered by the other files.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropToken, findToken } from '../../src/bearer/token.js';
import { AUTHORIZATION_TOKEN } from '../../src/worker/stages/credentials/authorization-token.js';
import { authorizationOnly } from '../../src/worker/stages/credentials/authorization-token.js';
import { Guard } from '../../src/worker/runner.js';
import type { AfterVerifyStage, Identity, StageHooks } from '../../src/worker/stage.js';
import { ANONYMOUS, type AuthOutcome } from '../../src/worker/context.js';
import { credentialStage, parseTokenSources } from '../../src/worker/stages/credentials/credentials.js';
import { parseIssuers } from '../../src/worker/issuers-config.js';
import { canonicalPath } from '../../src/worker/stages/path/path.js';
import { parsePaths, parsePublicPaths } from '../../src/worker/stages/path/paths-config.js';
import { routeStage } from '../../src/worker/stages/route/route.js';
import { parseRules, routeRules } from '../../src/worker/stages/route/rules.js';
import { context, observer as observeFor } from './stage-harness.js';

const ISS = 'https://id.example.com';
const issuers = parseIssuers([{ issuer: ISS, audience: 'api', algorithms: ['HS256'], secretBinding: 'K' }]);

const observer = () => observeFor(issuers);

describe('route stage (route.ts): method override, public paths, rules', () => {
  const config = {
    publicPaths: parsePublicPaths(['/health']),
    rules: parseRules(
      [
        { pathPrefix: '/open/', auth: 'none' },
        { pathPrefix: '/admin/', scopes: ['admin'] },
        { pathPrefix: '/maybe/', auth: 'optional' },
      ],
      new Set([ISS]),
    ),
    paths: parsePaths(undefined),
  };
  const run = (path: string, init?: RequestInit) => {
    const o = observer();
    const cx = context(path, init);
    const canonical = canonicalPath(cx.url.pathname, 'reject');
    if (!canonical.ok) throw new Error('test path not canonical');
    return { cx, out: routeStage(cx, canonical, config, o.observe, routeRules), ...o };
  };

  it(
    'stage_route_public_and_none_pass_anonymously: a public path and an auth "none" rule stop the chain with ' +
      'the anonymous pass',
    () => {
      expect(run('/health').out).toBe(ANONYMOUS);
      expect(run('/open/x').out).toBe(ANONYMOUS);
    },
  );

  it(
    'stage_route_continues_with_matched_rules: a rule that asks for a token continues, naming the rule for the ' +
      'log',
    () => {
      const { cx, out } = run('/admin/users');
      expect(out).toBeUndefined();
      expect(cx.matched?.auth).toBe('required');
      expect(cx.rule).toBe('rules[1]');
      const none = run('/other');
      expect(none.out).toBeUndefined();
      expect(none.cx.rule).toBeUndefined();
    },
  );

  it(
    'stage_route_method_override_refused: an override header stops the chain with a 400, counted and logged, ' +
      'before the public path',
    async () => {
      const { out, counters, lines } = run('/health', { headers: { 'X-HTTP-Method-Override': 'DELETE' } });
      expect(out?.ok).toBe(false);
      if (out === undefined || out.ok) throw new Error('expected a refusal');
      expect(out.response.status).toBe(400);
      expect(counters.get('rejected:method_override')).toBe(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ code: 'method_override', status: 400, path: '/health' });
    },
  );
});

describe('credential stage (credentials.ts): tokenSources and the token', () => {
  const config = {
    tokenSources: parseTokenSources([{ header: 'Authorization' }, { cookie: 'session' }], false),
    realm: 'edgejwt',
    sections: {},
  };
  const matched = (auth: 'required' | 'optional') => ({ rules: [], names: [], auth });

  it('stage_credential_found: a bearer token or the cookie continues with cx.token set', () => {
    for (const init of [
      { headers: { authorization: 'Bearer a.b.c' } },
      { headers: { cookie: 'x=1; session=a.b.c' } },
    ] as RequestInit[]) {
      const cx = context('/x', init);
      cx.matched = matched('required');
      expect(credentialStage(cx, config, observer().observe, findToken)).toBeUndefined();
      expect(cx.token).toBe('a.b.c');
    }
  });

  it(
    'stage_credential_missing_and_malformed: 401 with a challenge when missing (anonymous under optional), 400 ' +
      'when malformed',
    () => {
      const o = observer();
      const cx = context('/x');
      cx.matched = matched('required');
      const missing = credentialStage(cx, config, o.observe, findToken);
      if (missing === undefined || missing.ok) throw new Error('expected a refusal');
      expect(missing.response.status).toBe(401);
      expect(missing.response.headers.get('www-authenticate')).toMatch(/^Bearer realm="edgejwt"/);
      expect(o.counters.get('missing_token')).toBe(1);

      const optional = context('/x');
      optional.matched = matched('optional');
      expect(credentialStage(optional, config, o.observe, findToken)).toBe(ANONYMOUS);

      const bad = context('/x', { headers: { authorization: 'Bearer' } });
      bad.matched = matched('optional');
      const malformed = credentialStage(bad, config, o.observe, findToken);
      if (malformed === undefined || malformed.ok) throw new Error('expected a refusal');
      expect(malformed.response.status).toBe(400);
    },
  );

  it(
    'stage_credential_config_defaults: Authorization by default; with a Cloudflare Access issuer also its ' +
      'header and cookie',
    () => {
      expect(parseTokenSources(undefined, false)).toEqual([{ header: 'Authorization' }]);
      expect(parseTokenSources(undefined, true)).toEqual([
        { header: 'Cf-Access-Jwt-Assertion' },
        { header: 'Authorization' },
        { cookie: 'CF_Authorization' },
      ]);
      expect(() => parseTokenSources([], false)).toThrow(/tokenSources: expected a non-empty array/);
    },
  );

  it(
    'authorization_only_reads_as_find_token: without the tokenSources feature the guard finds and drops a ' +
      'token exactly as findToken and dropToken do for the default source',
    () => {
      const piece = fc.constantFrom(
        'Bearer',
        'bearer',
        'DPoP',
        'dpop',
        'Basic',
        ' ',
        '  ',
        '\t',
        'a',
        'Z',
        '0',
        '-',
        '.',
        '_',
        '~',
        '+',
        '/',
        '=',
        ',',
        '"',
        'eyJ',
      );
      const value = fc.option(
        fc.oneof(
          fc.array(piece, { maxLength: 10 }).map((p) => p.join('')),
          fc.string(),
          fc.string().map((s) => `Bearer ${s}`),
        ),
        { nil: undefined },
      );
      const spelling = fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION');
      fc.assert(
        fc.property(
          value,
          fc.boolean(),
          spelling,
          fc.option(fc.string(), { nil: undefined }),
          (v, dpop, name, cookie) => {
            const init: Record<string, string> = {};
            // Headers refuses some values (newlines, non-Latin-1); the same refusal either way.
            try {
              if (v !== undefined) new Headers({ authorization: v });
              if (cookie !== undefined) new Headers({ cookie });
            } catch {
              return;
            }
            if (v !== undefined) init.authorization = v;
            if (cookie !== undefined) init.cookie = cookie;
            const sources = [{ header: name }];
            expect(authorizationOnly(sources)).toBe(true);
            expect(AUTHORIZATION_TOKEN.findToken(new Headers(init), sources, dpop)).toEqual(
              findToken(new Headers(init), sources, dpop),
            );
            const a = new Headers(init);
            const b = new Headers(init);
            AUTHORIZATION_TOKEN.dropToken(a, sources);
            dropToken(b, sources);
            const list = (h: Headers): string[] => {
              const out: string[] = [];
              h.forEach((val, k) => out.push(`${k}: ${val}`));
              return out;
            };
            expect(list(a)).toEqual(list(b));
          },
        ),
      );
      for (const other of [
        [{ cookie: 'session' }],
        [{ header: 'X-Token' }],
        [{ header: 'Authorization' }, { cookie: 'session' }],
        parseTokenSources(undefined, true),
      ])
        expect(authorizationOnly(other)).toBe(false);
    },
  );
});

describe('observation stage (observe.ts)', () => {
  it(
    'stage_observe_analytics_configured_issuers_only: an unverified iss reaches analytics only when it is a ' +
      'configured issuer',
    () => {
      const o = observer();
      const cx = context('/x');
      o.observe.reject(cx, { code: 'wrong_issuer', status: 401, iss: 'https://attacker.example' });
      o.observe.reject(cx, { code: 'ERR_JWT_EXPIRED', status: 401, iss: ISS });
      expect(o.points.map((p) => p.blobs)).toEqual([
        ['wrong_issuer', ''],
        ['ERR_JWT_EXPIRED', ISS],
      ]);
      expect(o.lines).toHaveLength(2);
    },
  );
});

describe('identity hooks (runner.ts)', () => {
  const identity: Identity = {
    ok: true,
    anonymous: false,
    payload: { iss: ISS, sub: 'a' },
    header: () => ({ alg: 'HS256' }),
    issuer: ISS,
    timing: '',
  };
  const refusal: AuthOutcome = { ok: false, response: new Response(null, { status: 401 }) };
  // A chain whose first stage decides `first` (as the verify stage does), then the identity hooks.
  const decide = (first: AuthOutcome, checks: AfterVerifyStage[], o = observer()) => {
    const hooks: StageHooks[] = [
      { request: () => first },
      ...checks.map((c): StageHooks => ({ identity: (cx, id) => c(cx, id, o.observe) })),
    ];
    return new Guard({ counters: o.counters, now: () => 1, log: () => undefined } as never, hooks).decide(
      context('/x'),
    );
  };

  it(
    'stage_after_verify_order_and_stop: stages run in order, sync or async; the first refusal stops the rest; ' +
      'a refusal or anonymous pass is never handed to them',
    async () => {
      const seen: string[] = [];
      const pass =
        (name: string): AfterVerifyStage =>
        () =>
          void seen.push(name);
      const later =
        (name: string): AfterVerifyStage =>
        async () =>
          void seen.push(name);
      const stop: AfterVerifyStage = () => (seen.push('stop'), refusal);
      // Nothing waited: the decision is a value, not a promise.
      expect(decide(identity, [])).toBe(identity);
      expect(decide(identity, [pass('a')])).toBe(identity);
      seen.length = 0;
      expect(await decide(identity, [pass('a'), later('b'), pass('c')])).toBe(identity);
      expect(seen).toEqual(['a', 'b', 'c']);
      seen.length = 0;
      expect(await decide(identity, [later('a'), stop, pass('never')])).toBe(refusal);
      expect(seen).toEqual(['a', 'stop']);
      seen.length = 0;
      expect(decide(refusal, [pass('never')])).toBe(refusal);
      expect(decide(ANONYMOUS, [pass('never')])).toBe(ANONYMOUS);
      expect(seen).toEqual([]);
    },
  );

  it('stage_after_verify_replaces_identity: a stage may hand the next one an identity with more on it', async () => {
    const bound: Identity = { ...identity, timing: 'bound' };
    const got: string[] = [];
    const out = await decide(identity, [async () => bound, (_cx, id) => void got.push(id.timing)]);
    expect(out).toBe(bound);
    expect(got).toEqual(['bound']);
  });
});
