// edgejwt in Bun: `bun server.ts`
// Needs JWT_SECRET (at least 32 bytes) and optionally PORT; answers GET /me.
import { createVerifier, isJwtError } from 'edgejwt';

declare const Bun: {
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> }): unknown;
};

const secret = process.env.JWT_SECRET ?? '';
const port = Number(process.env.PORT ?? '3000');

// Built once: the key is imported once, not per request.
const verifier = createVerifier({ algorithms: ['HS256'], key: new TextEncoder().encode(secret), audience: 'example' });

function refuse(error?: string): Response {
  const challenge = error === undefined ? 'Bearer realm="example"' : `Bearer realm="example", error="${error}"`;
  return new Response('unauthorized\n', { status: 401, headers: { 'www-authenticate': challenge } });
}

Bun.serve({
  hostname: '127.0.0.1',
  port,
  async fetch(request) {
    const header = request.headers.get('authorization') ?? '';
    if (!header.startsWith('Bearer ')) return refuse();
    try {
      const { payload } = await verifier.verify(header.slice(7));
      return Response.json({ runtime: 'bun', sub: payload.sub });
    } catch (e) {
      if (isJwtError(e)) return refuse('invalid_token');
      throw e;
    }
  },
});
console.log(`listening on http://127.0.0.1:${port}`);
