import type { FastifyInstance } from 'fastify';
import { requestReport, storedPersons, visibilityReport } from '../control.js';
import { send } from '../http/reply.js';
import { resource } from '../http/resource.js';
import type { SimulatorState } from '../state.js';

const CONTROL_PREFIX = '/__control';

const control = { api: false, bearer: false } as const;

/** Test-only routes, unauthenticated and outside the API (never counted, delayed or faulted). */
export function registerControlRoutes(app: FastifyInstance, state: SimulatorState): void {
  resource(app, `${CONTROL_PREFIX}/reset`, control, {
    POST: (_request, reply) => {
      state.reset();
      return send(reply, { status: 200, body: { reset: true } });
    },
  });
  resource(app, `${CONTROL_PREFIX}/requests`, control, {
    GET: (_request, reply) => send(reply, { status: 200, body: requestReport(state) }),
  });
  resource(app, `${CONTROL_PREFIX}/persons`, control, {
    GET: (_request, reply) => send(reply, { status: 200, body: { persons: storedPersons(state) } }),
  });
  resource(app, `${CONTROL_PREFIX}/tokens`, control, {
    GET: (_request, reply) => send(reply, { status: 200, body: { tokens: state.tokens.list() } }),
  });
  resource(app, `${CONTROL_PREFIX}/visibility`, control, {
    GET: (_request, reply) => send(reply, { status: 200, body: visibilityReport(state) }),
  });
}
