import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  listConsumers,
  listSubscriptions,
  noteShown,
  subscribedPersons,
  subscriptionsRefused,
  unsubscribedPersons,
  uploadConsumers,
  type SubscriptionView,
} from '../consumer-ops.js';
import type { ConsumerUpload } from '../consumers.js';
import { badRequest, HttpError, wrongJsonType } from '../errors.js';
import { send } from '../http/reply.js';
import { resource } from '../http/resource.js';
import type { ListName, ResponseLayout } from '../layouts/layout.js';
import { listPage, unknownMarkerPage, type ListRequest } from '../pagination.js';
import type { Reply } from '../layouts/layout.js';
import type { SimulatorState } from '../state.js';
import { BOUNDS, checkLegalId, checkMarket, checkShape, consumer } from '../validation.js';

const CONSUMERS_PATH = '/consumer-intelligence/v3/consumers';

function checkUploads(body: unknown): ConsumerUpload[] {
  if (!Array.isArray(body)) throw wrongJsonType('an array of consumers', body);
  if (body.length === 0) throw badRequest('body', 'expected a non-empty array of consumers');
  if (body.length > BOUNDS.consumersPerUpload)
    throw badRequest(
      'body',
      `at most ${BOUNDS.consumersPerUpload} consumers per upload, got ${body.length}: send them in batches`,
    );
  body.forEach((item, index) => {
    checkShape(item, consumer, `[${index}]`);
    const upload = item as ConsumerUpload;
    checkLegalId(checkMarket(upload.market, `[${index}].market`), upload.data.legalId, `[${index}].data.legalId`);
  });
  return body as ConsumerUpload[];
}

/** What a list request asks for, in the layout's paging style unless SIMULATOR_PAGING chose one. */
function listRequest(
  list: ListName,
  request: FastifyRequest,
  state: SimulatorState,
  layout: ResponseLayout,
): ListRequest {
  return {
    style: state.options.paging ?? layout.paging,
    order: layout.order,
    pageSize: state.options.pageSize ?? layout.pageSize,
    query: request.query as Record<string, string | undefined>,
    cursorParam: layout.cursorParam,
    listKey: layout.listKeys[list],
    statedPageSize: state.options.statedPageSize,
    url: new URL(request.url, `${request.protocol}://${request.host}`),
  };
}

/** Whether a list request asks for a page after the first, in any paging style. */
function laterPage({ query, cursorParam }: ListRequest): boolean {
  return ['page', 'offset', 'pageToken', cursorParam].some(
    (param) => query[param] !== undefined && query[param] !== '0',
  );
}

/**
 * A page of `items` (oldest first) or, under lists-answer-500, a server error for a page after the first that lies
 * beyond every record the caller uploaded in this run (`uploaded`): a wait for its own record reads as far as that
 * record's page and passes, while a read of the whole list meets the error.
 */
function page<T>(
  state: SimulatorState,
  request: ListRequest,
  items: T[],
  keyOf: (item: T) => number,
  render: (item: T) => unknown,
  uploaded: (item: T) => boolean,
): Reply {
  if (!state.mutant('lists-answer-500') || !laterPage(request)) return listPage(items, keyOf, render, request);
  // The same page of the list cut after its last upload, in the list's order, is empty when this page lies beyond.
  const newestFirst = request.order === 'newest-first';
  const last = newestFirst ? items.findIndex(uploaded) : items.findLastIndex(uploaded);
  const cut = last < 0 ? [] : newestFirst ? items.slice(last) : items.slice(0, last + 1);
  let served = 0;
  listPage(cut, keyOf, () => (served += 1), request);
  if (served === 0) return { status: 500, body: { error: 'internal', message: 'the page could not be served' } };
  return listPage(items, keyOf, render, request);
}

/**
 * Operation 7's page: the subscribed persons in the request's paging, or as the mutants that hide a breach serve them:
 * newest first behind an unknown marker, the unsubscribed after them; a refusal once an unknown consumer is subscribed.
 */
function subscriptionsPage(state: SimulatorState, clientId: string, list: ListRequest, layout: ResponseLayout): Reply {
  if (subscriptionsRefused(state, clientId))
    return layout.error(new HttpError(400, 'list_refused', 'the subscribed persons cannot be listed in full now'));
  const render = (view: SubscriptionView) => {
    noteShown(state, clientId, view);
    return layout.subscription(view);
  };
  if (state.mutant('unsubscribed-behind-unknown-marker')) {
    const newestFirst = subscribedPersons(state, clientId).reverse();
    return unknownMarkerPage(newestFirst, unsubscribedPersons(state, clientId), render, list);
  }
  const subscribedAt = (view: SubscriptionView) => view.subscribedAt > 0;
  return page(state, list, listSubscriptions(state, clientId), (view) => view.seq, render, subscribedAt);
}

/** Operations 5–7: consumer upload, the caller's consumers, its subscribed persons. */
export function registerConsumerRoutes(app: FastifyInstance, state: SimulatorState, layout: ResponseLayout): void {
  resource(
    app,
    CONSUMERS_PATH,
    { api: true, bearer: true, body: 'json' },
    {
      POST: (request, reply) =>
        send(reply, layout.consumersAccepted(uploadConsumers(state, request.clientId, checkUploads(request.body)))),
      GET: (request, reply) =>
        send(
          reply,
          page(
            state,
            listRequest('consumers', request, state, layout),
            listConsumers(state, request.clientId),
            (view) => view.record.seq,
            layout.consumer,
            (view) => view.record.uploadedAt > 0,
          ),
        ),
    },
  );

  resource(
    app,
    '/consumer-intelligence/v3/subscriptions/persons',
    { api: true, bearer: true },
    {
      GET: (request, reply) =>
        send(
          reply,
          subscriptionsPage(state, request.clientId, listRequest('subscriptions', request, state, layout), layout),
        ),
    },
  );
}
