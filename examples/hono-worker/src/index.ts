// edgejwt/hono in a Cloudflare Worker: `npx wrangler dev` (JWT_SECRET in .dev.vars).
// Wrangler bundles edgejwt with the `workerd` condition, so the Wasm core arrives
// as an imported .wasm module (Workers refuse to compile Wasm bytes at run time).
import { Hono, type MiddlewareHandler } from 'hono';
import { jwtAuth, type JwtAuthEnv } from 'edgejwt/hono';

type Env = { Bindings: { JWT_SECRET: string } } & JwtAuthEnv;

// Secrets arrive per request in Workers: build the middleware once per secret, not per request.
let auth: { secret: string; handler: MiddlewareHandler<JwtAuthEnv> } | undefined;
function authFor(secret: string): MiddlewareHandler<JwtAuthEnv> {
  if (auth?.secret !== secret) {
    auth = { secret, handler: jwtAuth({ algorithms: ['HS256'], key: new TextEncoder().encode(secret), audience: 'example', realm: 'example' }) };
  }
  return auth.handler;
}

const app = new Hono<Env>();
app.get('/', (c) => c.text('public\n'));
app.use('/me', (c, next) => authFor(c.env.JWT_SECRET)(c, next));
app.get('/me', (c) => c.json({ runtime: 'workerd', sub: c.get('jwtPayload').sub }));

export default app;
