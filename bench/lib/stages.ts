// The verify path's stages, each alone on one token, with the library's own
// internals from dist/: split, header, the token's decode inside the Wasm core,
// key lookup, the signature check in place, JSON.parse of the payload, claims, and
// the whole verifySync for reference. Shared by bench/verify/verify.ts and bench/verify/stages.ts.
import { algSpec } from '../../dist/algorithms.js';
import { split } from '../../dist/jws.js';
import { parseHeader } from '../../dist/header.js';
import { parsePayloadText } from '../../dist/payload.js';
import { checkClaims } from '../../dist/claims.js';
import { claimPolicy } from '../../dist/options.js';
import { keyEntryFrom } from '../../dist/keys/from-input.js';
import { getCore } from '../../dist/wasm/instance.js';
import type { Case } from './harness.ts';

export function stageCases(token: string, alg: string, key: unknown, verifySync: (t: string) => unknown): Case[] {
  const t = token;
  const seg = split(t, 16384);
  const spec = algSpec(alg)!;
  const entry = keyEntryFrom(key as never);
  const handle = entry.handle(spec);
  if (handle instanceof Promise) throw new Error('stage cases need a key that imports synchronously');
  const core = getCore();
  const jws = core.decodeJws(t, seg.headerEnd, seg.payloadEnd);
  const text = jws.payload;
  const payload = parsePayloadText(text);
  const policy = claimPolicy({});
  const ph = parseHeader(t, seg.headerEnd);
  // The check runs on a token the core already holds (decoded once above).
  const check = () => handle.verify(jws);
  return [
    { name: 'split + bound', fn: () => split(t, 16384) },
    { name: 'header (parsed once, then cached)', fn: () => parseHeader(t, seg.headerEnd) },
    {
      name: 'token into the core + decode (base64url, UTF-8, payload text)',
      fn: () => core.decodeJws(t, seg.headerEnd, seg.payloadEnd),
    },
    { name: 'key (selected, imported once)', fn: () => entry.handle(spec) },
    { name: 'signature (in place)', fn: check },
    { name: 'payload JSON.parse', fn: () => parsePayloadText(text) },
    { name: 'claims', fn: () => checkClaims(payload, ph.header, policy, 1_800_000_000) },
    { name: 'full verifySync', fn: () => verifySync(t) },
  ];
}
