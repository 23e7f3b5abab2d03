// Workers: the .wasm is imported as a compiled WebAssembly.Module (Wrangler's
// CompiledWasm rule), because compiling bytes at run time is refused there.
import coreModule from './generated/core.wasm';

export function instantiateCore(): WebAssembly.Instance {
  return new WebAssembly.Instance(coreModule, {});
}
