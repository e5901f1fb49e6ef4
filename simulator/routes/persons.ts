import type { FastifyInstance } from 'fastify';
import type { ResponseLayout } from '../layouts/layout.js';
import { send } from '../http/reply.js';
import { resource } from '../http/resource.js';
import { deletePerson, putPerson } from '../person-commands.js';
import { findPersons, readPerson } from '../person-queries.js';
import type { SimulatorState } from '../state.js';
import { badRequest } from '../errors.js';
import { checkLegalId, checkMarket, checkPersonDeletion, checkSandboxPerson, checkShape } from '../validation.js';

const json = { api: true, bearer: true, body: 'json' } as const;

/** Operations 1–4: sandbox person management and person lookup. */
export function registerPersonRoutes(app: FastifyInstance, state: SimulatorState, layout: ResponseLayout): void {
  resource(app, '/consumer-intelligence/sandbox/v1/persons', json, {
    PUT: (request, reply) => {
      checkSandboxPerson(request.body, { strictBooleans: state.options.strictBooleans });
      const refused = state.options.refusedField;
      if (refused !== undefined && Object.hasOwn(request.body, refused))
        throw badRequest(refused, 'is not accepted by this sandbox');
      const ack = putPerson(state, request.clientId, request.body);
      return send(reply, layout.personWritten(state.mutant('gedi-missing') ? { ...ack, gedi: undefined } : ack));
    },
    DELETE: (request, reply) => {
      checkPersonDeletion(request.body);
      return send(reply, layout.personDeleted(deletePerson(state, request.clientId, request.body)));
    },
  });

  // The vendor's guides call operation 3 without the market segment; the knob serves it only there.
  resource(
    app,
    state.options.personPathElsewhere
      ? '/consumer-intelligence/v3/persons/:gedi'
      : '/consumer-intelligence/v3/markets/:market/persons/:gedi',
    { api: true, bearer: true },
    {
      GET: (request, reply) => {
        const { market, gedi } = request.params as { market?: string; gedi: string };
        const read = readPerson(state, market === undefined ? undefined : checkMarket(market, 'market'), gedi);
        return send(reply, 'pending' in read ? layout.pending(read.gedi) : layout.person(read));
      },
    },
  );

  resource(app, '/consumer-intelligence/v3/markets/:market/persons/_find', json, {
    POST: (request, reply) => {
      const market = checkMarket((request.params as { market: string }).market, 'market');
      checkShape(request.body, { object: { legalId: 'string' }, required: ['legalId'] }, 'body');
      const { legalId } = request.body as { legalId: string };
      checkLegalId(market, legalId, 'legalId');
      if (state.mutant('find-echoes-query')) return send(reply, layout.found([], { legalId, as: 'request' }));
      if (state.mutant('find-repeats-query-beside-results'))
        return send(reply, layout.found([], { legalId, as: 'field' }));
      return send(reply, layout.found(findPersons(state, market, legalId), undefined, { legalId }));
    },
  });
}
