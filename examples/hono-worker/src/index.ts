// edgejwt/hono in a Cloudflare Worker: `npx wrangler dev` (JWT_SECRET in .dev.vars).
// Wrangler bundles edgejwt with the `workerd` condition, so the Wasm core arrives
// as an imported .wasm module (Workers refuse to compile Wasm bytes at run time).
import { Hono } from 'hono';
import { jwtAuth, type JwtAuthEnv } from 'edgejwt/hono';

type Env = { Bindings: { JWT_SECRET: string } } & JwtAuthEnv;

const app = new Hono<Env>();
app.get('/', (c) => c.text('public\n'));
// Secrets arrive in c.env: the options are made from it once per isolate, not per request.
app.use(
  '/me',
  jwtAuth<Env>((env) => ({
    algorithms: ['HS256'],
    key: new TextEncoder().encode(env.JWT_SECRET),
    audience: 'example',
    realm: 'example',
  })),
);
app.get('/me', (c) => c.json({ runtime: 'workerd', sub: c.get('jwtPayload').sub }));

export default app;
