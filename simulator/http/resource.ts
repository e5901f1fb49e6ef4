import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { HttpError } from '../errors.js';

/** Per-route facts the hooks act on. */
export interface RouteConfig {
  /** Counted, delayed by the latency knob, subject to injected faults (everything but the control surface). */
  api: boolean;
  /** Needs a bearer token. */
  bearer: boolean;
  /** The content type the body must have. */
  body?: 'json' | 'form';
}

export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/**
 * Registers the handlers of one path and answers every other method with 405 and an Allow
 * header: fastify alone would answer an unknown method on a known path with 404.
 */
export function resource(
  app: FastifyInstance,
  url: string,
  config: RouteConfig,
  handlers: Partial<Record<HTTPMethods, Handler>>,
): void {
  const allowed = Object.keys(handlers) as HTTPMethods[];
  for (const method of allowed) {
    app.route({ method, url, config, handler: handlers[method]! });
  }
  // fastify serves HEAD itself for every GET route.
  const served = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
  const others = METHODS.filter((method) => !served.includes(method));
  app.route({
    method: others,
    url,
    config: { api: config.api, bearer: false },
    handler: () => {
      throw new HttpError(405, 'method_not_allowed', `use ${served.join(', ')} on ${url}`, undefined, {
        allow: served.join(', '),
      });
    },
  });
}
