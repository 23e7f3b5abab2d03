// One core per isolate, instantiated on first use (never as an import side effect).
// `#core-loader` resolves per runtime through package.json "imports":
// the `workerd` condition imports the .wasm module, everything else compiles bytes.
import { instantiateCore } from '#core-loader';
import { JwtError } from '../errors.js';
import { Core } from './core.js';
import type { CoreExports } from './exports.js';

let core: Core | undefined;

export function getCore(): Core {
  return (core ??= load());
}

/**
 * Whether this isolate's core has been instantiated (tests prove that a verifier
 * without HS* or EdDSA never starts it).
 *
 * @example
 * coreStarted(); // false until the first HS* or EdDSA verify, digest or HMAC sign
 */
export function coreStarted(): boolean {
  return core !== undefined;
}

function load(): Core {
  let instance: WebAssembly.Instance;
  try {
    instance = instantiateCore();
  } catch (e) {
    // An engine without Wasm SIMD cannot compile the core; embedders may forbid compiling at all.
    throw new JwtError('ERR_WASM_CORE', {
      reason: 'the Wasm core could not be compiled or instantiated here (it needs Wasm SIMD)',
      cause: e,
    });
  }
  return new Core(instance.exports as unknown as CoreExports);
}
