// The Worker every bundle entry here exports around its verifier: the bearer token of
// each request verified, its `sub` or a 401 (what a user's smallest Worker does).
import type { Verifier } from '../../../src/index.ts';

export function workerOf(verifier: Verifier): { fetch(request: Request): Promise<Response> } {
  return {
    async fetch(request: Request): Promise<Response> {
      const auth = request.headers.get('authorization') ?? '';
      try {
        const { payload } = await verifier.verify(auth.slice(7));
        return new Response(String(payload.sub));
      } catch {
        return new Response('unauthorized', { status: 401 });
      }
    },
  };
}
