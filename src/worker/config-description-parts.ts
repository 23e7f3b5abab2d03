// Value types the config description's entries share (config-description.ts and the stages'
// settings.ts files, which describe their own sections).

import { SUPPORTED_ALGORITHMS } from '../algorithms.js';
import type { ValueType } from './config-description-types.js';

export const HTTP_TOKEN = "^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$";
export const ALGORITHMS: ValueType = { kind: 'enum', values: SUPPORTED_ALGORITHMS };
export const NAME: ValueType = { kind: 'string', minLength: 1 };
export const NAMES: ValueType = { kind: 'oneOrMany', item: NAME };
export const HEADER: ValueType = { kind: 'string', pattern: HTTP_TOKEN };
export const PATH: ValueType = { kind: 'string', pattern: '^/' };
/** A store: a Durable Object binding of class `className`, or `"isolate"` (this isolate only). */
export const storeOrIsolate = (className: string): ValueType => ({
  kind: 'anyOf',
  of: [
    { kind: 'const', value: 'isolate' },
    {
      kind: 'object',
      fields: [{ name: 'durableObject', type: NAME, required: true, binding: 'durableObject', className }],
    },
  ],
});
export const CLAIMS: ValueType = { kind: 'map', value: { kind: 'oneOrMany', item: { kind: 'claimValue' } } };
