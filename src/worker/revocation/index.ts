// Token revocation for the guard (issue 25): the list as a Durable Object, the
// per-isolate view that answers per request, and an in-isolate store for tests.
export { parseRevocationEntry, RevocationIndex, MAX_ENTRY_LIFETIME_S } from './entry.js';
export type { RevocationEntry, VersionedEntry } from './entry.js';
export { RevocationLog, DEFAULT_MAX_ENTRIES } from './log.js';
export type { RevocationDelta } from './log.js';
export { RevocationList } from './list-object.js';
export type { RevocationState, RevocationStorage } from './list-object.js';
export { durableObjectRevocationSource, isolateRevocationStore, readDelta } from './source.js';
export type { RevocationSource, RevocationNamespace, IsolateRevocationStore } from './source.js';
export { RevocationView } from './view.js';
export type { RevocationVerdict, RevocationViewOptions } from './view.js';
