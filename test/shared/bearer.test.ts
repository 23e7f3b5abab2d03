// The bearer module (src/bearer/) that the guard and the Hono middleware share:
// one behaviour for every case the two used to answer differently.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  challengeHeader,
  challengeResponse,
  dropToken,
  findToken,
  fromAuthorization,
  fromCookie,
  fromCustomHeader,
  grantedScopes,
  hasScopes,
  keysUnavailable,
  publicDescription,
  quote,
  retryAfterSeconds,
} from '../../src/bearer/index.js';

describe('token extraction', () => {
  it('Authorization: Bearer in any case, one or more spaces, one b64token', () => {
    expect(fromAuthorization('Bearer a.b.c')).toEqual({ kind: 'token', token: 'a.b.c' });
    expect(fromAuthorization('bEaReR   a.b-c_d~+/==')).toEqual({ kind: 'token', token: 'a.b-c_d~+/==' });
  });

  it('Basic and other schemes are no bearer credential (none: 401 with a bare challenge)', () => {
    for (const v of ['Basic dXNlcjpwYXNz', 'Digest username="a"', 'Negotiate abc', 'Bearerx a.b.c'])
      expect(fromAuthorization(v), v).toEqual({ kind: 'none' });
    expect(fromAuthorization(null)).toEqual({ kind: 'none' });
    expect(fromAuthorization('')).toEqual({ kind: 'none' });
  });

  it('a Bearer credential that is not one b64token is malformed (400 invalid_request)', () => {
    for (const v of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer a"b', 'Bearer a=b', 'Bearer\ta.b.c', 'Bearer a,b']) {
      expect(fromAuthorization(v), v).toEqual({ kind: 'malformed' });
    }
  });

  it(
    'dpop_scheme_only_when_asked: Authorization DPoP <token> (any case) is a token with scheme dpop only for a ' +
      'reader that checks proofs; otherwise none',
    () => {
      expect(fromAuthorization('DPoP a.b.c')).toEqual({ kind: 'none' });
      expect(fromAuthorization('DPoP a.b.c', true)).toEqual({ kind: 'token', token: 'a.b.c', scheme: 'dpop' });
      expect(fromAuthorization('dpop   a.b.c', true)).toEqual({ kind: 'token', token: 'a.b.c', scheme: 'dpop' });
      expect(fromAuthorization('Bearer a.b.c', true)).toEqual({ kind: 'token', token: 'a.b.c' });
      expect(fromAuthorization('DPoP a b', true)).toEqual({ kind: 'malformed' });
      expect(findToken({ get: () => 'DPoP a.b.c' }, [{ header: 'Authorization' }])).toEqual({ kind: 'none' });
      expect(findToken({ get: () => 'DPoP a.b.c' }, [{ header: 'Authorization' }], true)).toEqual({
        kind: 'token',
        token: 'a.b.c',
        scheme: 'dpop',
      });
      // A custom header never carries the DPoP scheme: only Authorization does (RFC 9449 §7.1).
      expect(findToken({ get: () => 'DPoP a.b.c' }, [{ header: 'X-Token' }], true)).toEqual({ kind: 'malformed' });
    },
  );

  it('a custom header carries the bare token or Bearer <token>', () => {
    expect(fromCustomHeader('a.b.c')).toEqual({ kind: 'token', token: 'a.b.c' });
    expect(fromCustomHeader('Bearer a.b.c')).toEqual({ kind: 'token', token: 'a.b.c' });
    expect(fromCustomHeader('a b')).toEqual({ kind: 'malformed' });
    expect(fromCustomHeader(undefined)).toEqual({ kind: 'none' });
  });

  it('cookies: exact name, first match, quotes removed, empty value is none, odd value malformed', () => {
    expect(fromCookie('sessionx=1; session=a.b.c', 'session')).toEqual({ kind: 'token', token: 'a.b.c' });
    expect(fromCookie('session="a.b.c"', 'session')).toEqual({ kind: 'token', token: 'a.b.c' });
    expect(fromCookie('session=', 'session')).toEqual({ kind: 'none' });
    expect(fromCookie('session=a b', 'session')).toEqual({ kind: 'malformed' });
    expect(fromCookie('other=1', 'session')).toEqual({ kind: 'none' });
  });

  it('the first source holding something decides: a malformed header is not rescued by a cookie', () => {
    const h = new Headers({ authorization: 'Bearer a b', cookie: 'session=a.b.c' });
    expect(findToken(h, [{ header: 'Authorization' }, { cookie: 'session' }])).toEqual({ kind: 'malformed' });
    const basic = new Headers({ authorization: 'Basic dXNlcjpwYXNz', cookie: 'session=a.b.c' });
    expect(findToken(basic, [{ header: 'Authorization' }, { cookie: 'session' }])).toEqual({
      kind: 'token',
      token: 'a.b.c',
    });
  });

  it('whatever the header holds, extraction returns a b64token or nothing (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = fromAuthorization(s);
        if (r.kind === 'token') expect(r.token).toMatch(/^[A-Za-z0-9\-._~+/]+=*$/);
      }),
    );
  });

  it('dropToken removes the configured header and only the token cookie', () => {
    const h = new Headers({ authorization: 'Bearer a.b.c', cookie: 'theme=dark; session=a.b.c; x=1', 'x-other': '1' });
    dropToken(h, [{ header: 'Authorization' }, { cookie: 'session' }]);
    expect(h.get('authorization')).toBeNull();
    expect(h.get('cookie')).toBe('theme=dark; x=1');
    const only = new Headers({ cookie: 'session=a.b.c' });
    dropToken(only, [{ cookie: 'session' }]);
    expect(only.get('cookie')).toBeNull();
  });
});

describe('challenges (RFC 6750 §3)', () => {
  it('quote escapes quotes and backslashes and drops non-printable characters', () => {
    expect(quote('api "v1" \\ x\r\né')).toBe('"api \\"v1\\" \\\\ x"');
  });

  it('missing: 401, bare challenge, no error code', async () => {
    const r = challengeResponse('missing', { realm: 'api' });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(await r.json()).toEqual({ error: 'unauthorized', error_description: 'An access token is required' });
  });

  it('invalid_request 400, invalid_token 401, insufficient_scope 403 with scope', () => {
    expect(challengeResponse('invalid_request', { realm: 'a' }).status).toBe(400);
    const t = challengeResponse('invalid_token', { realm: 'a', description: publicDescription('ERR_JWT_EXPIRED') });
    expect(t.status).toBe(401);
    expect(t.headers.get('www-authenticate')).toBe(
      'Bearer realm="a", error="invalid_token", error_description="The access token expired"',
    );
    const s = challengeResponse('insufficient_scope', { realm: 'a', scopes: ['read', 'write'] });
    expect(s.status).toBe(403);
    expect(s.headers.get('www-authenticate')).toBe(
      'Bearer realm="a", error="insufficient_scope", error_description="The access token lacks a required ' +
        'scope", scope="read write"',
    );
    expect(s.headers.get('cache-control')).toBe('no-store');
  });

  it('Retry-After of a 503 is the JWKS cooldown, rounded up (default: the library default 30 s)', () => {
    expect(challengeResponse('unavailable', { realm: 'a' }).headers.get('retry-after')).toBe('30');
    expect(retryAfterSeconds(10_500)).toBe(11);
    expect(retryAfterSeconds(0)).toBe(1);
    const r = challengeResponse('unavailable', { realm: 'a', retryAfter: retryAfterSeconds(5_000) });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect(r.headers.get('www-authenticate')).toBeNull();
  });

  it('challenge_carries_resource_metadata: every 400/401/403 challenge points to the metadata, a 503 none', () => {
    const resourceMetadata = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
    const at = `, resource_metadata="${resourceMetadata}"`;
    expect(challengeHeader('missing', { realm: 'api', resourceMetadata })).toBe(`Bearer realm="api"${at}`);
    expect(challengeHeader('invalid_token', { realm: 'api', resourceMetadata })).toBe(
      `Bearer realm="api", error="invalid_token", error_description="The access token is invalid"${at}`,
    );
    expect(challengeHeader('insufficient_scope', { realm: 'api', scopes: ['tools:call'], resourceMetadata })).toBe(
      'Bearer realm="api", error="insufficient_scope", error_description="The access token lacks a required scope", ' +
        `scope="tools:call"${at}`,
    );
    const bad = challengeResponse('invalid_request', { realm: 'api', resourceMetadata });
    expect(bad.headers.get('www-authenticate')).toContain(at);
    expect(challengeHeader('unavailable', { realm: 'api', resourceMetadata })).toBeUndefined();
  });

  it('step_up_challenge_names_acr_values_and_max_age (RFC 9470 §3)', async () => {
    const kind = 'insufficient_user_authentication';
    const text = 'A stronger or more recent user authentication is required';
    const r = challengeResponse(kind, { realm: 'api', acrValues: ['mfa', 'phr'], maxAge: 300 });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(
      `Bearer realm="api", error="${kind}", error_description="${text}", acr_values="mfa phr", max_age="300"`,
    );
    expect(await r.json()).toEqual({ error: kind, error_description: text });
    expect(challengeHeader('insufficient_user_authentication', { realm: 'a', maxAge: 0 })).toMatch(/, max_age="0"$/);
    // Only a whole number of seconds is a max_age; the step-up parameters belong to this kind alone.
    for (const maxAge of [1.5, -1, NaN, Infinity]) {
      expect(challengeHeader('insufficient_user_authentication', { realm: 'a', maxAge })).not.toContain('max_age');
    }
    const other = challengeHeader('invalid_token', { realm: 'a', acrValues: ['mfa'], maxAge: 5 });
    expect(other).not.toMatch(/acr_values|max_age/);
  });

  it('challenge_values_never_break_out_of_their_quoted_string: hostile realm, scopes, acr values and URL', () => {
    const param = String.raw`[a-z_]+="(?:[^"\\]|\\.)*"`;
    const grammar = new RegExp(`^Bearer ${param}(?:, ${param})*$`);
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string()), fc.array(fc.string()), fc.string(), (realm, scopes, acr, url) => {
        const kinds = ['missing', 'invalid_token', 'insufficient_scope', 'insufficient_user_authentication'] as const;
        for (const kind of kinds) {
          const [acrValues, resourceMetadata] = [acr, url];
          const h = challengeHeader(kind, { realm, scopes, acrValues, maxAge: 60, resourceMetadata })!;
          expect(h).toMatch(grammar);
          expect(h).toMatch(/^[\x20-\x7e]*$/);
          // Headers accept it as is: no CR, LF or NUL survive.
          expect(new Headers({ 'www-authenticate': h }).get('www-authenticate')).toBe(h);
        }
      }),
    );
  });

  it('public descriptions are coarse: only expiry and not-yet-valid are told apart', () => {
    expect(publicDescription('ERR_JWT_NOT_YET_VALID')).toBe('The access token is not valid yet');
    expect(publicDescription('ERR_JWT_CLAIM_INVALID')).toBe('The access token is invalid');
    expect(publicDescription('ERR_JWS_SIGNATURE_INVALID')).toBe('The access token is invalid');
  });

  it('keys unavailable: fetch failed, timeout, invalid set; not an unknown kid', () => {
    expect(keysUnavailable('ERR_JWKS_FETCH_FAILED')).toBe(true);
    expect(keysUnavailable('ERR_JWKS_TIMEOUT')).toBe(true);
    expect(keysUnavailable('ERR_JWKS_INVALID')).toBe(true);
    expect(keysUnavailable('ERR_JWKS_NO_MATCHING_KEY')).toBe(false);
  });
});

describe('granted scopes', () => {
  it('scope string, scp array and scp string all count', () => {
    expect([...grantedScopes({ scope: 'a  b', scp: ['c', 'd e'] })].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([...grantedScopes({ scp: 'x y' })].sort()).toEqual(['x', 'y']);
    expect(grantedScopes({ scope: 42 as never }).size).toBe(0);
    expect(hasScopes({ scope: 'a b' }, ['b', 'a'])).toBe(true);
    expect(hasScopes({ scope: 'a' }, ['a', 'b'])).toBe(false);
    expect(hasScopes({}, [])).toBe(true);
  });
});
