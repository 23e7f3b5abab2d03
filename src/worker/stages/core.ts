// The stages every guard runs, given or not: they answer only when the config uses them, and
// carry no optional code (that comes with the given stages they read: revocation, rules, ...).

import type { GuardStage } from '../stage.js';
import { claims } from './claims/index.js';
import { credentials } from './credentials/index.js';
import { forward } from './forward/index.js';
import { observe } from './observe/index.js';
import { path, reservedPaths } from './path/index.js';
import { revocationAdmin } from './revocation-admin/index.js';
import { route } from './route/index.js';
import { senderConstraint } from './sender-constraint/index.js';
import { verify } from './verify/index.js';

/**
 * The core stages, in chain order.
 *
 * @example
 * chainOf([]); // coreStages
 */
export const coreStages: readonly GuardStage[] = [
  revocationAdmin,
  observe,
  path,
  reservedPaths,
  route,
  credentials,
  verify,
  claims,
  senderConstraint,
  forward,
];
