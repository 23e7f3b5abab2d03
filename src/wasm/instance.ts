// One core per isolate, instantiated on first use (never as an import side effect).
// `#core-loader` resolves per runtime through package.json "imports":
// the `workerd` condition imports the .wasm module, everything else compiles bytes.
import { instantiateCore } from '#core-loader';
import { Core } from './core.js';
import type { CoreExports } from './exports.js';

let core: Core | undefined;

export function getCore(): Core {
  return (core ??= new Core(instantiateCore().exports as unknown as CoreExports));
}
