// `origin: { "service": "API" }`: authorised requests go to another Worker
// through its service binding (`env.API.fetch`), never over the internet.

import type { GuardEnv } from './build.js';
import { ConfigError } from './config.js';

/** What a service binding offers the guard. */
export interface ServiceBinding {
  fetch(request: Request): Promise<Response>;
}

/** The binding named in the config; a ConfigError when it is missing. */
export function serviceBinding(env: GuardEnv, name: string): ServiceBinding {
  const b = env[name] as Partial<ServiceBinding> | undefined;
  if (b === undefined || b === null || typeof b.fetch !== 'function') throw new ConfigError('origin.service', 'the service binding is missing');
  return b as ServiceBinding;
}

/** The request as the guard forwards it (same URL: a service binding has no host of its own). */
export async function forwardToService(binding: ServiceBinding, request: Request, url: URL, headers: Headers): Promise<Response> {
  const init: RequestInit = { method: request.method, headers, body: request.body, redirect: 'manual' };
  return binding.fetch(new Request(url, init));
}
