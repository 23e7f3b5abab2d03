// The library-only Worker of the isolate bench, instrumented for
// bench/guard/cold-steps.ts: clock marks around each step of a fresh isolate's first
// request (bundle evaluation, the verifier's construction, the first verify, a
// second verify), returned in the x-marks header (ms since the bundle began).
// With x-bench-split, the construction is split: the core's instantiation, then
// one verifier per issuer, then the verifier of all four (warm by then).
import { T0 } from './mark.ts';
import { createVerifier, type Verifier } from '../../../src/index.ts';
import { getCore } from '../../../src/wasm/instance.ts';
import { Core, ed25519Drop, ed25519Import } from '../../../src/wasm/core.ts';
import { instantiateCore } from '../../../src/wasm/load-workerd.ts';
import type { CoreExports } from '../../../src/wasm/exports.ts';
import { issuerOptions, type IssuerConfig } from './issuers.ts';

const T_EVAL = Date.now();
let verifier: Verifier | undefined;

/**
 * With `t`: first the core (instantiate, wrap, the library's getCore), then one verifier per issuer (in `order`), each
 * marked.
 */
function setup(env: Record<string, unknown>, t?: number[], order?: string | null): Verifier {
  const config = JSON.parse(String(env.GUARD_CONFIG)) as { issuers: IssuerConfig[] };
  if (t !== undefined && order === 'core-first') {
    // The core's first calls as the library makes them, before any other library code runs:
    // getCore (instantiate + wrapper), a JWS decode, an HMAC-SHA-256 import + verify, an
    // Ed25519 import; what construction and the first verify cost after that is the JS.
    const core = getCore();
    t.push(Date.now() - T0);
    core.decodeJws('eyJhbGciOiJIUzI1NiJ9.e30.AAAA', 20, 24);
    t.push(Date.now() - T0);
    const slot = core.hmacImport('SHA-256', new Uint8Array(32).fill(7));
    core.verify('hmac', slot, { message: 'abc', signature: new Uint8Array(32) });
    core.hmacDrop(slot);
    t.push(Date.now() - T0);
    const ed = config.issuers.find((c) => c.algorithms.includes('EdDSA'))?.jwks?.keys[0] as { x?: string } | undefined;
    if (ed?.x !== undefined)
      ed25519Drop(
        core,
        ed25519Import(
          core,
          Uint8Array.from(atob(ed.x.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
        ),
      );
    t.push(Date.now() - T0);
  } else if (t !== undefined) {
    // The core's pieces one by one (a second instance; the library's own comes next).
    const exports = instantiateCore().exports as unknown as CoreExports;
    t.push(Date.now() - T0);
    new Core(exports);
    t.push(Date.now() - T0);
    getCore();
    t.push(Date.now() - T0);
    const issuers = order === 'reverse' ? [...config.issuers].reverse() : config.issuers;
    for (const c of issuers) {
      createVerifier({ issuers: [issuerOptions(c, env)], cache: false });
      t.push(Date.now() - T0);
    }
  }
  return createVerifier({ issuers: config.issuers.map((c) => issuerOptions(c, env)), cache: false });
}

export default {
  async fetch(request: Request, env: Record<string, unknown>): Promise<Response> {
    const first = verifier === undefined;
    const t: number[] = [T_EVAL - T0, Date.now() - T0];
    const split = request.headers.get('x-bench-split');
    verifier ??= setup(env, split !== null ? t : undefined, split);
    t.push(Date.now() - T0);
    const auth = request.headers.get('authorization') ?? '';
    const { payload } = await verifier.verify(auth.slice(7));
    t.push(Date.now() - T0);
    const second = request.headers.get('x-token2');
    if (second) await verifier.verify(second);
    t.push(Date.now() - T0);
    return new Response(`${JSON.stringify({ sub: payload.sub })}\n`, {
      headers: first ? { 'x-marks': t.join(',') } : {},
    });
  },
};
