// End to end against a real authorization server on loopback: panva's oidc-provider
// issues RFC 9068 JWT access tokens (resource indicators, accessTokenFormat 'jwt') by
// client_credentials, Bearer and DPoP-bound, and oauth4webapi is the client that asks
// for them and makes the DPoP proofs. Nothing here is minted by hand: the library's
// verifier (profile 'at+jwt') takes the AS's keys from its jwks_uri, and
// verifyDpopProof + checkDpopBinding take the proofs the client sent; then the guard
// (createGuard, in Node; replay "isolate"; keys from the AS's jwks_uri over loopback)
// answers the client's real requests, forwarded to an origin on loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuard, defaultStages, type EmbeddedGuard } from '../../src/worker/api.js';
import { insecure, startProvider, type RunningProvider } from './oidc-provider-server.js';
import {
  checkDpopBinding,
  createRemoteJWKSet,
  createVerifier,
  decodeUnverified,
  verifyDpopProof,
  type Algorithm,
  type DpopAlgorithm,
} from '../../src/index.js';

/** One resource server per access-token signing algorithm, all served by the one AS. */
const RESOURCES = {
  RS256: 'https://rs256.api.example/',
  ES256: 'https://es256.api.example/',
  EdDSA: 'https://eddsa.api.example/',
} as const;
type TokenAlg = keyof typeof RESOURCES;
const CLIENT = { client_id: 'svc-1', client_secret: 'a-long-enough-client-secret-for-the-test' };
const API = 'https://api.example.com/orders/42';
/** The client's key types; oauth4webapi signs with an Ed25519 key as `Ed25519` (RFC 9864), not `EdDSA`. */
const CLIENT_ALGS = ['ES256', 'EdDSA', 'RS256', 'PS256'] as const;
const PROOF_ALGS: DpopAlgorithm[] = ['ES256', 'Ed25519', 'RS256', 'PS256'];

let op: RunningProvider;
let issuer: string;
let as: oauth.AuthorizationServer;

/** The AS's signing keys: one private JWK per algorithm its resource servers use. */
async function signingKeys(): Promise<Record<string, unknown>[]> {
  const make = async (alg: string, params: RsaHashedKeyGenParams | EcKeyGenParams | { name: 'Ed25519' }) => {
    const pair = (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair;
    return {
      ...(await crypto.subtle.exportKey('jwk', pair.privateKey)),
      kid: `as-${alg}`,
      alg,
      use: 'sig',
      key_ops: undefined,
      ext: undefined,
    };
  };
  return [
    await make('RS256', {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    }),
    await make('ES256', { name: 'ECDSA', namedCurve: 'P-256' }),
    await make('EdDSA', { name: 'Ed25519' }),
  ];
}

beforeAll(async () => {
  const keys = await signingKeys();
  op = await startProvider(() => ({
    clients: [
      {
        ...CLIENT,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: keys as never },
    ttl: { ClientCredentials: 600 },
    enabledJWA: { dPoPSigningAlgValues: PROOF_ALGS as never },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      dPoP: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCES.RS256,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          const alg = (Object.keys(RESOURCES) as TokenAlg[]).find((a) => RESOURCES[a] === resource);
          if (alg === undefined) throw new Error('unknown resource');
          return {
            scope: 'orders:read orders:write',
            audience: resource,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg } },
          };
        },
      },
    },
  }));
  ({ issuer, as } = op);
}, 30_000);

afterAll(() => op?.close());

/** A client_credentials token for `resource`, DPoP-bound when `dpop` is given. */
async function accessToken(resource: string, dpop?: oauth.DPoPHandle): Promise<string> {
  const client = { client_id: CLIENT.client_id };
  const params = new URLSearchParams({ resource, scope: 'orders:read' });
  const res = await oauth.clientCredentialsGrantRequest(
    as,
    client,
    oauth.ClientSecretBasic(CLIENT.client_secret),
    params,
    { ...insecure, ...(dpop === undefined ? {} : { DPoP: dpop }) },
  );
  const body = await oauth.processClientCredentialsResponse(as, client, res);
  expect(body.token_type.toLowerCase()).toBe(dpop === undefined ? 'bearer' : 'dpop');
  return body.access_token;
}

/**
 * What the real client sends for a protected-resource request: its Authorization and DPoP headers (captured, not sent).
 */
async function clientRequest(
  token: string,
  dpop: oauth.DPoPHandle,
  method = 'GET',
  url = API,
): Promise<{ authorization: string; proof: string }> {
  let seen: Headers | undefined;
  const capture = async (_u: string, init: { headers: Record<string, string> }) => {
    seen = new Headers(init.headers);
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  await oauth.protectedResourceRequest(token, method, new URL(url), new Headers(), null, {
    DPoP: dpop,
    [oauth.customFetch]: capture,
  });
  return { authorization: seen!.get('authorization')!, proof: seen!.get('dpop')! };
}

function dpopClient(alg: (typeof CLIENT_ALGS)[number]): Promise<oauth.DPoPHandle> {
  return oauth.generateKeyPair(alg as oauth.JWSAlgorithm, { extractable: false }).then((pair) => oauth.DPoP({}, pair));
}

function verifierFor(alg: TokenAlg) {
  // The AS's key set, fetched from its jwks_uri (http is allowed on loopback only).
  const jwks = createRemoteJWKSet(as.jwks_uri!);
  return createVerifier({ algorithms: [alg as Algorithm], jwks, issuer, audience: RESOURCES[alg], profile: 'at+jwt' });
}

describe('oidc-provider (RFC 9068 + RFC 9449) and oauth4webapi, library side', () => {
  it(
    'oidc_provider_at_jwt_verifies: its JWT access tokens (RS256, ES256, EdDSA) pass the at+jwt profile against ' +
      'its jwks_uri',
    async () => {
      for (const alg of Object.keys(RESOURCES) as TokenAlg[]) {
        const token = await accessToken(RESOURCES[alg]);
        const { header, payload } = await verifierFor(alg).verify(token);
        expect(header.typ, alg).toBe('at+jwt');
        expect(header.alg).toBe(alg);
        expect(payload).toMatchObject({
          iss: issuer,
          aud: RESOURCES[alg],
          client_id: CLIENT.client_id,
          scope: 'orders:read',
        });
        expect(typeof payload.jti).toBe('string');
        expect(payload.cnf).toBeUndefined();
        // Another resource's verifier refuses it by audience.
        const other = alg === 'RS256' ? 'ES256' : 'RS256';
        await expect(
          createVerifier({
            algorithms: [alg as Algorithm],
            jwks: createRemoteJWKSet(as.jwks_uri!),
            issuer,
            audience: RESOURCES[other],
            profile: 'at+jwt',
          }).verify(token),
        ).rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_INVALID', claim: 'aud' });
      }
    },
  );

  it(
    "oidc_provider_dpop_proofs_verify: the client's proofs (ES256, EdDSA, RS256, PS256) verify, and the token's " +
      'cnf.jkt binds to exactly that key',
    async () => {
      const verifier = verifierFor('ES256');
      for (const alg of CLIENT_ALGS) {
        const dpop = await dpopClient(alg);
        const token = await accessToken(RESOURCES.ES256, dpop);
        const { payload } = await verifier.verify(token);
        expect((payload.cnf as { jkt?: unknown }).jkt, alg).toEqual(expect.any(String));
        const sent = await clientRequest(token, dpop, 'POST');
        expect(sent.authorization).toBe(`DPoP ${token}`);
        const proof = await verifyDpopProof(sent.proof, {
          method: 'POST',
          url: API,
          algorithms: PROOF_ALGS,
          accessToken: token,
        });
        expect(proof.alg).toBe(alg === 'EdDSA' ? 'Ed25519' : alg);
        expect(proof.jkt).toBe((payload.cnf as { jkt: string }).jkt);
        checkDpopBinding(payload, proof);
        // The same proof against another method, URL or token is refused.
        await expect(
          verifyDpopProof(sent.proof, { method: 'GET', url: API, algorithms: PROOF_ALGS, accessToken: token }),
        ).rejects.toMatchObject({ code: 'ERR_DPOP_HTM_MISMATCH' });
        await expect(
          verifyDpopProof(sent.proof, {
            method: 'POST',
            url: 'https://api.example.com/orders/43',
            algorithms: PROOF_ALGS,
            accessToken: token,
          }),
        ).rejects.toMatchObject({ code: 'ERR_DPOP_HTU_MISMATCH' });
        const bearer = await accessToken(RESOURCES.ES256);
        await expect(
          verifyDpopProof(sent.proof, { method: 'POST', url: API, algorithms: PROOF_ALGS, accessToken: bearer }),
        ).rejects.toMatchObject({ code: 'ERR_DPOP_ATH_MISMATCH' });
        // A token bound to another client key does not bind to this proof.
        const otherToken = await accessToken(RESOURCES.ES256, await dpopClient('ES256'));
        expect(() => checkDpopBinding(decodeUnverified(otherToken).payload, proof)).toThrow(
          expect.objectContaining({ code: 'ERR_DPOP_BINDING_MISMATCH' }),
        );
      }
    },
  );
});

describe('oidc-provider and oauth4webapi through the guard (profile at+jwt, dpop required / allowed)', () => {
  let origin: Server;
  let originUrl: string;
  const seenByOrigin: string[] = [];
  const logs: string[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void p.catch(() => undefined) };

  beforeAll(async () => {
    origin = createServer((req, res) => {
      seenByOrigin.push(`${req.method} ${req.url}`);
      res.end('{"origin":true}');
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    origin?.closeAllConnections();
    await new Promise((resolve) => origin?.close(resolve));
  });

  function guardWith(mode: 'required' | 'allowed'): { guard: EmbeddedGuard; env: Record<string, unknown> } {
    const guard = createGuard(
      {
        issuers: [
          {
            issuer,
            audience: RESOURCES.ES256,
            algorithms: ['ES256'],
            jwksUrl: as.jwks_uri!,
            profile: 'at+jwt',
            dpop: mode,
          },
        ],
        // Said out loud: one Node process is one isolate here. Ed25519 listed: oauth4webapi names its Ed25519 proofs so
        // (the default list has only EdDSA).
        dpop: { replay: 'isolate', algorithms: PROOF_ALGS },
        origin: originUrl,
      } as never,
      { stages: defaultStages, log: (l) => logs.push(l) },
    );
    return { guard, env: {} };
  }

  /** The real client's request through `guard`: its status, and the headers it sent (to send them again). */
  async function throughGuard(
    g: { guard: EmbeddedGuard; env: Record<string, unknown> },
    token: string,
    dpop: oauth.DPoPHandle,
    method = 'GET',
    url = API,
  ): Promise<{ status: number; headers: Record<string, string> }> {
    let sent: Record<string, string> = {};
    const viaGuard = async (u: string, init: { method: string; headers: Record<string, string> }) => {
      sent = init.headers;
      return g.guard.fetch(new Request(u, { method: init.method, headers: init.headers }), g.env as never, ctx);
    };
    const res = await oauth.protectedResourceRequest(token, method, new URL(url), new Headers(), null, {
      DPoP: dpop,
      [oauth.customFetch]: viaGuard,
    });
    return { status: res.status, headers: sent };
  }

  const send = (
    g: { guard: EmbeddedGuard; env: Record<string, unknown> },
    url: string,
    headers: Record<string, string>,
    method = 'GET',
  ) => g.guard.fetch(new Request(url, { method, headers }), g.env as never, ctx);
  const lastCode = () =>
    (JSON.parse(logs.filter((l) => l.includes('"status":401')).at(-1) ?? '{}') as { code?: string }).code;

  it(
    "oidc_provider_guard_dpop_end_to_end: a real client's DPoP request passes; the same proof again, a proof " +
      'for another URL and the bound token as Bearer are 401',
    async () => {
      const g = guardWith('required');
      for (const alg of CLIENT_ALGS) {
        const dpop = await dpopClient(alg);
        const token = await accessToken(RESOURCES.ES256, dpop);
        const first = await throughGuard(g, token, dpop);
        expect(first.status, alg).toBe(200);
        expect(seenByOrigin.at(-1)).toBe('GET /orders/42');

        // The same Authorization and DPoP headers again: a replay.
        const again = await send(g, API, first.headers);
        expect(again.status, alg).toBe(401);
        expect(again.headers.get('www-authenticate')).toMatch(/^DPoP .*error="invalid_dpop_proof"/);
        expect(lastCode()).toBe('dpop_replayed');

        // A fresh proof the client made for /orders/42, sent to /orders/43.
        const other = await clientRequest(token, dpop);
        const moved = await send(g, 'https://api.example.com/orders/43', {
          authorization: other.authorization,
          dpop: other.proof,
        });
        expect(moved.status, alg).toBe(401);
        expect(lastCode()).toBe('ERR_DPOP_HTU_MISMATCH');
        // ...and for GET, sent as DELETE.
        const verb = await clientRequest(token, dpop);
        expect((await send(g, API, { authorization: verb.authorization, dpop: verb.proof }, 'DELETE')).status).toBe(
          401,
        );
        expect(lastCode()).toBe('ERR_DPOP_HTM_MISMATCH');

        // The bound token as a plain bearer token, with or without the client's proof beside it.
        const bearer = await clientRequest(token, dpop);
        expect((await send(g, API, { authorization: `Bearer ${token}` })).status, alg).toBe(401);
        expect((await send(g, API, { authorization: `Bearer ${token}`, dpop: bearer.proof })).status, alg).toBe(401);
      }
      // An unbound token from the same AS is refused where DPoP is required.
      expect((await send(g, API, { authorization: `Bearer ${await accessToken(RESOURCES.ES256)}` })).status).toBe(401);
      expect(lastCode()).toBe('dpop_required');
    },
  );

  it(
    'oidc_provider_bound_token_never_bearer: with dpop "allowed", unbound Bearer tokens pass and a DPoP-bound ' +
      'token sent as Bearer is still 401',
    async () => {
      const g = guardWith('allowed');
      expect((await send(g, API, { authorization: `Bearer ${await accessToken(RESOURCES.ES256)}` })).status).toBe(200);
      const dpop = await dpopClient('ES256');
      const token = await accessToken(RESOURCES.ES256, dpop);
      expect((await throughGuard(g, token, dpop)).status).toBe(200);
      expect((await send(g, API, { authorization: `Bearer ${token}` })).status).toBe(401);
    },
  );

  it('oidc_provider_guard_profile: a token for another resource of the same AS is refused by audience', async () => {
    const g = guardWith('allowed');
    const res = await send(g, API, { authorization: `Bearer ${await accessToken(RESOURCES.RS256)}` });
    expect(res.status).toBe(401);
  });
});
