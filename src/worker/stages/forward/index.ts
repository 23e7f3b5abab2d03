// The forward stage: the request let through goes to the configured origin only, with the
// verified identity (forward.ts). Its given parts: serviceOrigin (`origin: { service }`,
// service-origin.ts) and forwardPayload (`forwardPayload`, payload-header.ts).

import type { GuardStage } from '../../stage.js';
import { tokenReader } from '../credentials/index.js';
import type { OriginAssertionStage } from '../origin-assertion/index.js';
import { Forwarder } from './forward.js';
import { payloadHeaderValue } from './payload-header.js';
import { serviceOrigin as openService } from './service-origin.js';
import { originAssertionSection } from '../origin-assertion/section.js';

/** @example const s: ServiceOriginStage = serviceOrigin; */
export interface ServiceOriginStage extends GuardStage {
  serviceOrigin: typeof openService;
}

/**
 * Forwarding through a service binding (`origin: { service }`).
 *
 * @example
 * const guard = createGuard(config, { stages: [serviceOrigin] });
 */
export const serviceOrigin: ServiceOriginStage = {
  name: 'serviceOrigin',
  order: 175,
  build: () => undefined,
  serviceOrigin: openService,
};

/** @example const s: ForwardPayloadStage = forwardPayload; */
export interface ForwardPayloadStage extends GuardStage {
  payloadHeaderValue: typeof payloadHeaderValue;
}

/**
 * The payload header (`forwardPayload`).
 *
 * @example
 * const guard = createGuard(config, { stages: [forwardPayload] });
 */
export const forwardPayload: ForwardPayloadStage = {
  name: 'forwardPayload',
  order: 176,
  build: () => undefined,
  payloadHeaderValue,
};

/**
 * The forward stage (always in the chain).
 *
 * @example
 * const stages = [revocation, forward];
 */
export const forward: GuardStage = {
  name: 'forward',
  order: 170,
  build: (b) => {
    const { config, env, parts } = b;
    const origin = config.origin;
    const forwarder = new Forwarder(
      {
        config,
        fetch: parts.fetch,
        tokens: tokenReader(b),
        service:
          typeof origin === 'object'
            ? b.use<ServiceOriginStage>('serviceOrigin', 'origin.service').serviceOrigin(env, origin.service)
            : undefined,
        payloadHeader:
          config.forwardPayload === undefined
            ? undefined
            : b.use<ForwardPayloadStage>('forwardPayload', 'forwardPayload').payloadHeaderValue,
        assertion:
          originAssertionSection.of(config) === undefined
            ? undefined
            : b.use<OriginAssertionStage>('originAssertion', 'originAssertion').open(b),
      },
      b.observe,
    );
    const canonical = config.paths.forward === 'canonical';
    return { pass: (cx, outcome) => forwarder.forward(cx, outcome, canonical ? cx.path!.path : cx.url.pathname) };
  },
};
