import { fileURLToPath } from 'node:url';

// The library's internal imports as a deployed Worker resolves them (the `workerd`
// condition): shared by the workerd Vitest configs.
export const workerdAliases: Record<string, string> = {
  '#core-loader': fileURLToPath(new URL('./src/wasm/load-workerd.ts', import.meta.url)),
  '#crypto-backend': fileURLToPath(new URL('./src/backend/webcrypto.ts', import.meta.url)),
  '#platform': fileURLToPath(new URL('./src/platform/web.ts', import.meta.url)),
};
