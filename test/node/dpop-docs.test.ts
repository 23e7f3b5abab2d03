// The DPoP example in docs/api.md, held to the library: a replay store that keeps a
// proof's replayKey as long as the example says must outlive every moment at which
// verifyDpopProof still accepts that proof. With the defaults a proof may be dated
// clockTolerance ahead, so that is maxAge + 2 × clockTolerance after it arrived.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyDpopProof } from '../../src/index.js';
import { generate, mint, NOW } from '../shared/jwt-mint.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const URL_ = 'https://api.example.com/v1/things';

describe('docs/api.md DPoP example', () => {
  it(
    'dpop_docs_replay_ttl_covers_window: the example ' + 'replay ttl outlives the last moment a proof is accepted',
    async () => {
      const api = readFileSync(join(root, 'docs/api.md'), 'utf8');
      const section = api.slice(api.indexOf('### `verifyDpopProof('), api.indexOf('### `jwkThumbprint('));
      const ttl = Number(/replayStore\.addIfAbsent\(proof\.replayKey, \{ ttl: (\d+) \}\)/.exec(section)?.[1]);
      expect(ttl).toBeGreaterThan(0);
      // A proof that arrives at NOW dated as far ahead as the default clockTolerance (5 s) allows.
      const pair = await generate('ES256');
      const proof = await mint(
        pair,
        { jti: 'j', htm: 'GET', htu: URL_, iat: NOW + 5 },
        { typ: 'dpop+jwt', jwk: pair.publicJwk },
      );
      const at = (s: number) =>
        verifyDpopProof(proof, {
          method: 'GET',
          url: URL_,
          algorithms: ['ES256'],
          currentDate: new Date((NOW + s) * 1000),
        });
      expect((await at(0)).jti).toBe('j');
      // Once the store has forgotten the replayKey, the proof must be refused on its age.
      await expect(at(ttl + 0.001)).rejects.toMatchObject({ code: 'ERR_DPOP_IAT_INVALID' });
    },
  );
});
