import type { FastifyInstance } from 'fastify';
import { send } from '../http/reply.js';
import { resource } from '../http/resource.js';
import type { ResponseLayout } from '../layouts/layout.js';
import { screen, type ScreeningSubject } from '../screening.js';
import type { SimulatorState } from '../state.js';

// The documentation names both the versioned and the root form; the company path is a guess by analogy.
const PREFIXES = { versioned: '/aml-real-time-screening/v2/api/aml/kyc', root: '/aml-real-time-screening/api/aml/kyc' };
const SUBJECTS: ScreeningSubject[] = ['person', 'company'];

/** Operations 8 and 9 under both address forms. */
export function registerScreeningRoutes(app: FastifyInstance, state: SimulatorState, layout: ResponseLayout): void {
  const prefixes = state.mutant('root-screening-missing') ? [PREFIXES.versioned] : Object.values(PREFIXES);
  for (const prefix of prefixes) {
    for (const subject of SUBJECTS) {
      resource(
        app,
        `${prefix}/${subject}/screening`,
        { api: true, bearer: true, body: 'json' },
        {
          POST: (request, reply) => send(reply, layout.screening(screen(state, subject, request.body))),
        },
      );
    }
  }
}
