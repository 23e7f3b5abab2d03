// The test Worker's entry: the Durable Object classes under test, and nothing else.
export { RevocationList } from '../../src/worker/revocation/list-object.js';

export default {
  fetch(): Response {
    return new Response('durable object tests only', { status: 404 });
  },
};
export { DpopReplayShard } from '../../src/worker/dpop-replay/shard-object.js';
