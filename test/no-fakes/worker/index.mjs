// The suite's Worker under `wrangler dev`: the app of ../app.mjs with the
// runtime's own everything, and `Origin`, the bound service the guard forwards
// to (wrangler.toml binds ORIGIN to this Worker's own `Origin` entrypoint).
import { WorkerEntrypoint } from 'cloudflare:workers';
import { createApp } from '../app.mjs';

let handle;

export default {
  fetch(request, env, ctx) {
    handle ??= createApp(env.ISSUER); // --var ISSUER:http://127.0.0.1:PORT
    return handle(request, env, ctx);
  },
};

/** The service-binding origin: answers like the issuer's echo (issuer.mjs). */
export class Origin extends WorkerEntrypoint {
  async fetch(request) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    const url = new URL(request.url);
    return Response.json({
      method: request.method,
      path: url.pathname + url.search,
      sha256: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(''),
      length: bytes.length,
      sub: request.headers.get('x-auth-sub'),
    });
  }
}
