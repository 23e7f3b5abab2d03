// Node, Deno, Bun and browsers: compile the bytes shipped in the package, once,
// synchronously. (Workers refuse this; they use ./load-workerd.ts.)
import { CORE_WASM_BASE64 } from './generated/core-bytes.js';

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function instantiateCore(): WebAssembly.Instance {
  const module = new WebAssembly.Module(decodeBase64(CORE_WASM_BASE64) as BufferSource);
  return new WebAssembly.Instance(module, {});
}
