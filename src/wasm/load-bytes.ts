// Node, Deno, Bun and browsers: compile the bytes shipped in the package, once,
// synchronously. (Workers refuse this; they use ./load-workerd.ts.)
import { base64Bytes } from '#platform';
import { CORE_WASM_BASE64 } from './generated/core-bytes.js';

export function instantiateCore(): WebAssembly.Instance {
  const module = new WebAssembly.Module(base64Bytes(CORE_WASM_BASE64) as BufferSource);
  return new WebAssembly.Instance(module, {});
}
