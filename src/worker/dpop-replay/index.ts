// DPoP proof replay protection for the guard (issue 25): sharded Durable Objects, and
// an in-isolate store for tests.
export { DpopReplayShard } from './shard-object.js';
export type { ReplayShardState } from './shard-object.js';
export { durableObjectDpopReplayStore, isolateDpopReplayStore } from './store.js';
export type { DpopReplayStore, ReplayNamespace } from './store.js';
export { ReplayWindow, replayInputProblem, REPLAY_KEY, MAX_REPLAY_WINDOW_S, DEFAULT_MAX_KEYS } from './window.js';
export type { ReplayOutcome } from './window.js';
