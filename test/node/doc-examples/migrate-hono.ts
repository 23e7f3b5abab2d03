import { Hono } from 'hono';
import { createSigner } from 'edgejwt';
import { jwtAuth, type JwtAuthEnv } from 'edgejwt/hono';

const secret = new TextEncoder().encode('a shared secret of at least 32 bytes');
const app = new Hono<JwtAuthEnv>();

// hono: jwt({ secret: 'a shared secret of at least 32 bytes', alg: 'HS256', cookie: 'session',
//             verification: { iss: 'https://auth.example', aud: 'api' } })
app.use('/api/*', jwtAuth({
  algorithms: ['HS256'],           // an allow-list, required (hono: alg)
  key: secret,                     // bytes, at least 32 for HS256 (hono: secret as a string)
  issuer: 'https://auth.example',  // hono: verification.iss
  audience: 'api',                 // hono: verification.aud
  cookie: 'session',               // a cookie name (hono also takes { key, secret, prefixOptions })
  requireExp: false,               // hono's behaviour: a token without exp passes
}));
app.get('/api/me', (c) => c.json({ sub: c.get('jwtPayload').sub }));

const signer = createSigner({ alg: 'HS256', key: secret });
const token = signer.signSync({ sub: 'alice' }, { issuer: 'https://auth.example', audience: 'api' });
const ok = await app.request('/api/me', { headers: { authorization: `Bearer ${token}` } });
console.log(ok.status, await ok.text()); // → 200 {"sub":"alice"}

// hono: 401 invalid_request for every refusal; edgejwt: RFC 6750 (no token: a bare challenge)
const none = await app.request('/api/me');
console.log(none.status, none.headers.get('www-authenticate')); // → 401 Bearer realm="edgejwt"
const malformed = await app.request('/api/me', { headers: { authorization: 'Bearer a b' } });
console.log(malformed.status); // → 400
