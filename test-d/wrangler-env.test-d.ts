// Type tests (tsc only, nothing runs): the `Env` that `wrangler types` generates is
// accepted wherever a GuardEnv is expected. The interface below has the shape
// `wrangler types` writes for the guard's wrangler.toml (an interface, literal types
// for vars, the Workers types for bindings), with a service and an Analytics
// Engine binding added; an interface gets no implicit index signature, which is
// what made it unassignable before.
import type {
  AnalyticsEngineDataset,
  ExecutionContext,
  Fetcher,
  KVNamespace,
} from '@cloudflare/workers-types/index.ts';
import { createGuard, defaultStages, type GuardEnv } from '../src/worker/api.ts';

interface __BaseEnv_Env {
  VERIFY_CACHE: KVNamespace;
  JWKS_CACHE: KVNamespace;
  CACHE_KEY?: 'ZGV2LW9ubHktY2FjaGUta2V5LW5vdC1hLXNlY3JldC0wMDAw';
  ADMIN_SECRET?: 'dev-only-admin-secret';
  GUARD_CONFIG?: '{"issuers": []}';
  ANALYTICS: AnalyticsEngineDataset;
  API: Fetcher;
}
interface Env extends __BaseEnv_Env {}

declare const env: Env;
declare const ctx: ExecutionContext;
declare const request: Request;

const asGuardEnv: GuardEnv = env;
void asGuardEnv;

const guard = createGuard(
  (e) => ({
    issuers: [
      {
        issuer: 'https://id.example.com',
        audience: 'api',
        algorithms: ['RS256'],
        jwksUrl: `https://id.example.com/${String(e.GUARD_CONFIG).length}`,
      },
    ],
  }),
  { stages: defaultStages },
);
void guard.fetch(request, env, ctx);
void guard.authenticate(request, env, ctx);
guard.warm(env);

// A binding the guard knows, of the wrong type, is still refused.
interface WrongEnv {
  JWKS_CACHE: string;
}
declare const wrong: WrongEnv;
// @ts-expect-error JWKS_CACHE must be a KV namespace
const refused: GuardEnv = wrong;
void refused;
