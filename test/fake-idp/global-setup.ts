// Vitest globalSetup (workerd config): one fake IdP on 127.0.0.1 for the whole
// run; tests read its port with inject('fakeIdpPort').
import type { TestProject } from 'vitest/node';
import { startFakeIdp } from './server.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { server, port } = await startFakeIdp();
  project.provide('fakeIdpPort', port);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

declare module 'vitest' {
  export interface ProvidedContext {
    fakeIdpPort: number;
  }
}
