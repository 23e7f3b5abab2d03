// The Worker bench/core/ed25519-workerd.ts runs in workerd: it verifies the same
// signature n times per request with edgejwt's Wasm core (the shipped glue in
// dist/wasm/core.js, the .wasm imported as a compiled module as in a deployed
// Worker) or with crypto.subtle.verify. Timing happens outside, in Node, because
// workerd's clocks do not advance during synchronous execution.
import { Core, ed25519Import } from '../../dist/wasm/core.js';
// Beside the bundle: bundleWorker copies the built core next to it (bench/lib/workerd-bundle.ts).
import coreModule from './core.wasm';

let state;

const hex = (s) => new Uint8Array(s.match(/../g).map((b) => parseInt(b, 16)));

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/setup') {
      const { pub, sig, msg } = await request.json();
      const core = new Core(new WebAssembly.Instance(coreModule, {}).exports);
      const t0 = Date.now();
      const slot = ed25519Import(core, hex(pub));
      const subtleKey = await crypto.subtle.importKey('raw', hex(pub), { name: 'Ed25519' }, false, ['verify']);
      state = { core, slot, subtleKey, sig: hex(sig), msg, msgBytes: new TextEncoder().encode(msg) };
      const bad = state.sig.slice();
      bad[5] ^= 1;
      const verdicts = [
        core.verify('ed25519', slot, { message: msg, signature: state.sig }),
        core.verify('ed25519', slot, { message: msg, signature: bad }),
        await crypto.subtle.verify('Ed25519', subtleKey, state.sig, state.msgBytes),
        await crypto.subtle.verify('Ed25519', subtleKey, bad, state.msgBytes),
      ];
      return Response.json({ verdicts, setupClockMs: Date.now() - t0 });
    }
    const n = Number(url.searchParams.get('n') ?? '0');
    const impl = url.searchParams.get('impl');
    const { core, slot, subtleKey, sig, msg, msgBytes } = state;
    let ok = 0;
    if (impl === 'ours')
      for (let i = 0; i < n; i++) ok += core.verify('ed25519', slot, { message: msg, signature: sig }) ? 1 : 0;
    else if (impl === 'subtle')
      for (let i = 0; i < n; i++) ok += (await crypto.subtle.verify('Ed25519', subtleKey, sig, msgBytes)) ? 1 : 0;
    else if (impl !== 'noop') return new Response('unknown impl', { status: 400 });
    return new Response(String(ok));
  },
};
