import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listConsumers, listSubscriptions, uploadConsumers } from '../consumer-ops.js';
import type { ConsumerUpload } from '../consumers.js';
import { badRequest } from '../errors.js';
import { send } from '../http/reply.js';
import { resource } from '../http/resource.js';
import type { NextLink, ResponseLayout } from '../layouts/layout.js';
import { pageLimit, paginate } from '../pagination.js';
import type { SimulatorState } from '../state.js';
import { checkLegalId, checkMarket, checkShape, consumer } from '../validation.js';

const CONSUMERS_PATH = '/consumer-intelligence/v3/consumers';

function checkUploads(body: unknown): ConsumerUpload[] {
  if (!Array.isArray(body) || body.length === 0) throw badRequest('body', 'expected a non-empty array of consumers');
  body.forEach((item, index) => {
    checkShape(item, consumer, `[${index}]`);
    const upload = item as ConsumerUpload;
    checkLegalId(checkMarket(upload.market, `[${index}].market`), upload.data.legalId, `[${index}].data.legalId`);
  });
  return body as ConsumerUpload[];
}

/** The paging parameters of a list request and the link to the following page. */
function listRequest(request: FastifyRequest, state: SimulatorState, layout: ResponseLayout) {
  const query = request.query as Record<string, string | undefined>;
  const limit = pageLimit(query.limit, state.options.pageSize);
  const next: NextLink = (cursor) => {
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    url.searchParams.set('limit', String(limit));
    url.searchParams.set(layout.cursorParam, cursor);
    return url.toString();
  };
  return { limit, cursor: { param: layout.cursorParam, value: query[layout.cursorParam] }, next };
}

/** Operations 5–7: consumer upload, the caller's consumers, its subscribed persons. */
export function registerConsumerRoutes(app: FastifyInstance, state: SimulatorState, layout: ResponseLayout): void {
  resource(app, CONSUMERS_PATH, { api: true, bearer: true, body: 'json' }, {
    POST: (request, reply) => send(reply, layout.consumersAccepted(uploadConsumers(state, request.clientId, checkUploads(request.body)))),
    GET: (request, reply) => {
      const { limit, cursor, next } = listRequest(request, state, layout);
      const page = paginate(listConsumers(state, request.clientId), (view) => view.record.seq, layout.order, limit, cursor);
      return send(reply, layout.consumers(page, next));
    },
  });

  resource(app, '/consumer-intelligence/v3/subscriptions/persons', { api: true, bearer: true }, {
    GET: (request, reply) => {
      const { limit, cursor, next } = listRequest(request, state, layout);
      const page = paginate(listSubscriptions(state, request.clientId), (view) => view.seq, layout.order, limit, cursor);
      return send(reply, layout.subscriptions(page, next));
    },
  });
}
