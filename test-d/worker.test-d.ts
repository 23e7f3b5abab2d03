// Type tests of edgejwt/worker's public surface (src/worker/api.ts): createGuard,
// its types and the default Worker; the guard's internals are not exported.
import * as worker from '../src/worker/api.ts';
import guard, {
  createGuard,
  defaultStages,
  keySets,
  remoteKeys,
  type AuthResult,
  type EmbeddedGuard,
  type GuardConfigInput,
  type GuardStage,
  type WaitUntil,
  type WorkerHandler,
} from '../src/worker/api.ts';

const config: GuardConfigInput = {
  issuers: [
    { issuer: 'https://id.example', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example/jwks' },
  ],
};
export const embedded: EmbeddedGuard = createGuard(config, { stages: [keySets, remoteKeys] });
export const everyStage: EmbeddedGuard = createGuard(config, {
  stages: defaultStages,
  log: (line: string) => void line,
});
export const stages: readonly GuardStage[] = [keySets, remoteKeys];
// @ts-expect-error a stage is one of the exported values, not any object
export const notAStage: EmbeddedGuard = createGuard(config, { stages: [{ name: 'cors' }] });
// A stage of one's own: a name and a build that returns the hooks it needs.
export const mine: GuardStage = {
  name: 'mine',
  build: () => ({ answer: (cx, res) => (res.headers.set('x-path', cx.url.pathname), res) }),
};
export const withMine: EmbeddedGuard = createGuard(config, { stages: [...defaultStages, mine] });
// @ts-expect-error a hook answers with the outcome type, not a bare Response
export const badHook: GuardStage = { name: 'bad', build: () => ({ request: () => new Response() }) };
export const handler: WorkerHandler = guard;
export async function decide(request: Request, ctx: WaitUntil): Promise<string> {
  const auth: AuthResult = await embedded.authenticate(request, {}, ctx);
  return auth.ok ? String(auth.payload?.sub) : String(auth.response.status);
}

// The value exports include createGuard, defaultStages, each stage and the default Worker.
export const values: {
  createGuard: typeof createGuard;
  defaultStages: readonly GuardStage[];
  keySets: typeof keySets;
  default: WorkerHandler;
} = worker;
// @ts-expect-error startGuard is internal (src/worker/guard.ts)
export const s = worker.startGuard;
// @ts-expect-error Guard is internal
export const g = worker.Guard;
// @ts-expect-error parseConfig is internal (src/worker/config.ts)
export const p = worker.parseConfig;
// @ts-expect-error ConfigError is internal: createGuard answers a bad config with a 500 and a log line
export const c = worker.ConfigError;
