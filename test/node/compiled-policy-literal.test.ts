// The compiled guard builds its verifier from the config literal `edgejwt build-guard` wrote
// (each issuer's policy made by issuer-settings.ts issuerPolicy, verify-path.ts
// twoStepVerifierFrom), not from options. The policy it runs must be exactly the one the
// options path builds from the same config:
// here, over random configs (HS/EdDSA/RS/ES issuers, audiences, typ, maxTokenAge, profile,
// clockTolerance) and random tokens, the two verifiers give the same answer and the same code.
// Node only: fake Date (buildParts reads the clock as the guard does) and eval of the entry's config literal.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { guardEntry } from '../../src/cli/guard-entry.js';
import { buildPolicy } from '../../src/options.js';
import { hmacPolicy } from '../../src/hmac/source.js';
import { createLocalJWKSet } from '../../src/keys/local.js';
import { buildTwoStepVerifierWith, type IssuerPolicy, type TwoStepVerifier } from '../../src/verify-path.js';
import { buildParts } from '../../src/worker/build.js';
import { parseConfig, type GuardConfig } from '../../src/worker/config.js';
import { keySets } from '../../src/worker/features/key-sets.js';
import { givenFeatures, hmacOnly } from '../../src/worker/features/registry.js';
import { NOW, b64u, generate, nowDate, signParams, unb64u, type KeyPair } from '../shared/jwt-mint.js';

const FAMILIES = { HS: ['HS256', 'HS384', 'HS512'], EdDSA: ['EdDSA'], RS: ['RS256'], ES: ['ES256'] } as const;
type Family = keyof typeof FAMILIES;
const ALL_ALGS = Object.values(FAMILIES).flat();
const NAMES = ['https://a.example', 'https://b.example', 'https://c.example', 'https://d.example', 'https://e.example', 'https://f.example'];
const AUDS = ['api', 'other', 'urn:x'];
const enc = new TextEncoder();

let keys: Record<Family, KeyPair>;
/** A second key of each family: a token signed by it must be refused by both paths alike. */
let wrong: Record<Family, KeyPair>;

beforeAll(async () => {
  const pair = async (): Promise<Record<Family, KeyPair>> => ({
    HS: await generate('HS512', { secretLength: 64 }),
    EdDSA: await generate('EdDSA'),
    RS: await generate('RS256'),
    ES: await generate('ES256'),
  });
  keys = await pair();
  wrong = await pair();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(nowDate);
});
afterAll(() => vi.useRealTimers());

const familyOf = (alg: string): Family => (Object.keys(FAMILIES) as Family[]).find((f) => (FAMILIES[f] as readonly string[]).includes(alg))!;

async function sign(alg: string, pair: KeyPair, header: Record<string, unknown>, payload: Record<string, unknown>): Promise<string> {
  const input = `${b64u(JSON.stringify({ alg, ...header }))}.${b64u(JSON.stringify(payload))}`;
  // The HMAC secret signs under each hash (the library takes a 64-byte key for all three).
  const key = alg.startsWith('HS') ? await crypto.subtle.importKey('raw', pair.secret! as BufferSource, { name: 'HMAC', hash: `SHA-${alg.slice(2)}` }, false, ['sign']) : pair.privateKey;
  return `${input}.${b64u(new Uint8Array(await crypto.subtle.sign(signParams(alg), key, enc.encode(input))))}`;
}

/** One issuer entry of GUARD_CONFIG, as a user writes it. */
const issuerEntry = fc.record({
  family: fc.constantFrom<Family>('HS', 'EdDSA', 'RS', 'ES'),
  hsAlgs: fc.subarray([...FAMILIES.HS], { minLength: 1 }),
  spellings: fc.integer({ min: 1, max: 2 }),
  audience: fc.option(fc.oneof(fc.constantFrom(...AUDS), fc.subarray(AUDS, { minLength: 1 })), { nil: undefined }),
  typ: fc.option(fc.constantFrom('at+jwt', 'JWT', 'application/AT+JWT', 'application/jwt'), { nil: undefined }),
  maxTokenAge: fc.option(fc.constantFrom(1, 60, 3600), { nil: undefined }),
  profile: fc.option(fc.constant('at+jwt' as const), { nil: undefined }),
});

const configArb = fc.record({
  entries: fc.array(issuerEntry, { minLength: 1, maxLength: 3 }),
  clockTolerance: fc.option(fc.constantFrom(0, 5, 600), { nil: undefined }),
});

type ConfigShape = typeof configArb extends fc.Arbitrary<infer T> ? T : never;

/** The raw config and its env (each HS issuer's secret). */
function rawConfig(c: ConfigShape): { raw: Record<string, unknown>; env: Record<string, string> } {
  const env: Record<string, string> = {};
  let name = 0;
  const issuers = c.entries.map((e, i) => {
    const issuer = NAMES.slice(name, name + e.spellings);
    name += e.spellings;
    const src = e.family === 'HS' ? { secretBinding: `KEY_${i}` } : { jwks: { keys: [keys[e.family].publicJwk] } };
    if (e.family === 'HS') env[`KEY_${i}`] = b64u(keys.HS.secret!);
    // Configs the guard takes: the profile fixes typ and needs an audience.
    const fit = e.profile !== undefined;
    const audience = fit ? (e.audience ?? 'api') : e.audience;
    const typ = fit && e.typ !== undefined && !/at\+jwt/i.test(e.typ) ? undefined : e.typ;
    return {
      issuer: issuer.length === 1 ? issuer[0] : issuer,
      ...(audience === undefined ? { claims: { tenant: 'acme' } } : { audience }),
      algorithms: e.family === 'HS' ? e.hsAlgs : [...FAMILIES[e.family]],
      ...(typ === undefined ? {} : { typ }),
      ...(e.maxTokenAge === undefined ? {} : { maxTokenAge: e.maxTokenAge }),
      ...(e.profile === undefined ? {} : { profile: e.profile }),
      ...src,
    };
  });
  return { raw: { issuers, origin: 'builtin:echo', cache: { jwks: false }, ...(c.clockTolerance === undefined ? {} : { clockTolerance: c.clockTolerance }) }, env };
}

/**
 * The options path from what the user wrote (not from the parsed config, nor issuerSettings):
 * each raw entry's issuer, audience, algorithms, typ, maxTokenAge and profile as createVerifier
 * options with its key, through buildTwoStepVerifierWith as build.ts built the guard's verifier
 * before the literal (hmacPolicy for HMAC-only configs, else buildPolicy).
 */
function optionsPath(raw: Record<string, unknown>, env: Record<string, string>, hmacOnlyConfig: boolean): TwoStepVerifier {
  const entries = raw.issuers as Record<string, unknown>[];
  const issuers = entries.map((e) => {
    const { issuer, audience, algorithms, typ, maxTokenAge, profile, secretBinding, jwks } = e as Record<string, unknown>;
    const key = secretBinding === undefined ? { jwks: createLocalJWKSet(jwks as never) } : { key: unb64u(env[secretBinding as string]!) };
    return { issuer, audience, algorithms, typ, maxTokenAge, profile, ...key } as unknown as IssuerPolicy;
  });
  return buildTwoStepVerifierWith({ issuers, clockTolerance: raw.clockTolerance as number | undefined, cache: false, currentDate: nowDate }, hmacOnlyConfig ? hmacPolicy : buildPolicy);
}

/** The `const config = …;` expression of the entry build-guard writes, evaluated: what the isolate runs with. */
function entryConfig(raw: unknown): GuardConfig {
  const line = guardEntry(raw, './compiled.js').code.split('\n').find((l) => l.startsWith('const config = '))!;
  return new Function(`return ${line.slice('const config = '.length, -1)}`)() as GuardConfig;
}

async function outcome(v: TwoStepVerifier, token: string): Promise<string> {
  try {
    const opened = v.open(token);
    return JSON.stringify({ ok: (await v.verifyOpened(opened)).payload });
  } catch (e) {
    const err = e as { code?: string; message?: string; claim?: string };
    if (typeof err.code !== 'string') throw e;
    return JSON.stringify({ code: err.code, message: err.message, claim: err.claim });
  }
}

/** Mostly `usual`, sometimes anything `other` gives: most tokens pass, and each check is also hit alone. */
const mostly = <T>(usual: T, other: fc.Arbitrary<T>): fc.Arbitrary<T> => fc.oneof({ weight: 5, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: other });

/** A token aimed at the config: mostly one of its issuers with its own key and claims that pass, each varied now and then. */
const tokenArb = fc.record({
  issuer: fc.oneof({ weight: 5, arbitrary: fc.nat(3) }, { weight: 1, arbitrary: fc.constant(-1) }),
  alg: mostly<string>('own', fc.constantFrom(...ALL_ALGS)),
  wrongKey: mostly(false, fc.boolean()),
  aud: mostly<unknown>('own', fc.option(fc.oneof(fc.constantFrom(...AUDS, 'nobody'), fc.subarray([...AUDS, 'nobody'], { minLength: 1 })), { nil: undefined })),
  typ: mostly<string | undefined>('own', fc.option(fc.constantFrom('at+jwt', 'JWT', 'application/at+jwt', 'AT+JWT', 'jwt'), { nil: undefined })),
  iat: mostly<number | undefined>(10, fc.option(fc.integer({ min: -700, max: 4000 }), { nil: undefined })),
  exp: mostly<number | undefined>(600, fc.option(fc.integer({ min: -700, max: 4000 }), { nil: undefined })),
  nbf: mostly<number | undefined>(undefined, fc.integer({ min: -100, max: 700 })),
  profileClaims: mostly(true, fc.boolean()),
  tenant: mostly(true, fc.boolean()),
});

describe('the compiled entry runs the policy the options path builds', () => {
  it('compiled_policy_literal_matches_options_path: same answer and code for random configs and tokens (fast-check)', async () => {
    let accepted = 0;
    let refused = 0;
    let configs = 0;
    await fc.assert(
      fc.asyncProperty(configArb, fc.array(tokenArb, { minLength: 4, maxLength: 8 }), async (c, tokens) => {
        const { raw, env } = rawConfig(c);
        let config: GuardConfig;
        try {
          config = parseConfig(raw);
        } catch {
          return; // A config the guard refuses has no compiled entry (profile with typ JWT, ...).
        }
        configs++;
        const parts = await buildParts(entryConfig(raw), env, { log: () => undefined }, givenFeatures({ keySets }));
        const compiled = parts.verifier;
        const options = optionsPath(raw, env, hmacOnly(config));
        for (const t of tokens) {
          const at = t.issuer < 0 || t.issuer >= config.issuers.length ? -1 : t.issuer;
          const own = config.issuers[Math.max(at, 0)]!.algorithms;
          const alg = t.alg === 'own' ? own[Math.max(t.issuer, 0) % own.length]! : t.alg;
          const pair = (t.wrongKey ? wrong : keys)[familyOf(alg)];
          const is = config.issuers[Math.max(at, 0)]!;
          const aud = t.aud === 'own' ? is.audience[0] : t.aud;
          const typ = t.typ === 'own' ? (is.profile ?? is.typ) : t.typ;
          const payload: Record<string, unknown> = {
            iss: at < 0 ? 'https://nobody.example' : is.issuer.at(-1),
            sub: 'user-1',
            ...(aud === undefined ? {} : { aud }),
            ...(t.iat === undefined ? {} : { iat: NOW - t.iat }),
            ...(t.exp === undefined ? {} : { exp: NOW + t.exp }),
            ...(t.nbf === undefined ? {} : { nbf: NOW + t.nbf }),
            ...(t.profileClaims ? { client_id: 'c', jti: 'j' } : {}),
            ...(t.tenant ? { tenant: 'acme' } : {}),
          };
          const jwt = await sign(alg, pair, typ === undefined ? {} : { typ }, payload);
          const want = await outcome(options, jwt);
          expect(await outcome(compiled, jwt), jwt).toBe(want);
          if (want.startsWith('{"ok"')) accepted++;
          else refused++;
        }
      }),
      { numRuns: 120 },
    );
    // The property is not empty: configs were compiled, and tokens got through as well as refused.
    expect(configs).toBeGreaterThan(30);
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  }, 120_000);
});
