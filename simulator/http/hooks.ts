import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerHolder, claimedClient } from '../auth.js';
import { checkPermission } from '../permissions.js';
import { HttpError } from '../errors.js';
import type { SimulatorState } from '../state.js';
import type { ResponseLayout } from '../layouts/layout.js';
import type { RouteConfig } from './resource.js';
import { send } from './reply.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    api?: RouteConfig['api'];
    bearer?: RouteConfig['bearer'];
    body?: RouteConfig['body'];
  }
  interface FastifyRequest {
    /** The client the bearer token belongs to (set for bearer routes). */
    clientId: string;
  }
}

const MEDIA_TYPES = { json: 'application/json', form: 'application/x-www-form-urlencoded' } as const;

const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);

function routeKey(request: FastifyRequest): string {
  return request.routeOptions.url ?? '(no route)';
}

function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * With probability `faultRate`, a transient 429 or 503 to answer instead of processing the request; drawn for the
 * request itself (its method, URL and how often it was asked), not for its place in the order of arrival.
 */
function injectedFault(state: SimulatorState, request: FastifyRequest): HttpError | undefined {
  const { faultRate } = state.options;
  if (faultRate === 0) return undefined;
  const random = state.randomFor(`${request.method} ${request.url}`);
  if (random() >= faultRate) return undefined;
  state.requests.faultsInjected += 1;
  const status = random() < 0.5 ? 429 : 503;
  return new HttpError(
    status,
    status === 429 ? 'rate_limited' : 'unavailable',
    'transient fault; retry later',
    undefined,
    { 'retry-after': '1' },
  );
}

/** A 429 with Retry-After when the request's client has used up its rate (state.rateLimit). */
function overRateLimit(state: SimulatorState, request: FastifyRequest): HttpError | undefined {
  const admission = state.rateLimit.admit(claimedClient(state, request.headers.authorization), state.now());
  if (admission.admitted) return undefined;
  state.requests.throttled += 1;
  return new HttpError(
    429,
    'rate_limited',
    `more than ${state.options.rateLimitPerSecond} requests a second; retry later`,
    undefined,
    { 'retry-after': String(admission.retryAfterS) },
  );
}

/**
 * Cross-cutting behaviour in request order: count, judge the rate as the request arrives, add
 * latency, maybe answer 429 for the rate or with an injected fault (before any processing, so a
 * refused request changes nothing), then authenticate, then check the content type of the parsed body.
 */
export function installHooks(app: FastifyInstance, state: SimulatorState, layout: ResponseLayout): void {
  app.decorateRequest('clientId', '');
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.api === false) return;
    state.requests.count(request.method, routeKey(request));
    const limited = config.api ? overRateLimit(state, request) : undefined;
    if (state.options.latencyMs > 0) await state.clock.sleep(state.options.latencyMs);
    const fault = limited ?? (config.api ? injectedFault(state, request) : undefined);
    if (fault) return send(reply, layout.error(fault));
    if (!config.bearer) return;
    const holder = bearerHolder(state, request.headers.authorization);
    request.clientId = holder.clientId;
    checkPermission(state, request, holder);
  });
  app.addHook('preValidation', async (request) => {
    const expected = request.routeOptions.config.body;
    // Reads carry no body, so their content type is not checked even on a path that also takes one.
    if (expected === undefined || BODILESS.has(request.method) || mediaTypeOf(request) === MEDIA_TYPES[expected])
      return;
    throw new HttpError(
      layout.unsupportedMediaTypeStatus,
      'unsupported_media_type',
      `Content-Type: expected ${MEDIA_TYPES[expected]}, got ${JSON.stringify(request.headers['content-type'] ?? null)}`,
      'Content-Type',
    );
  });
}
