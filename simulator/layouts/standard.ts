import type { PersonView } from '../person-queries.js';
import type { ResponseLayout } from './layout.js';

/** Flat person record; the stored flags become `removed`, `deregistered` and `merged.gedi`. */
function personRecord({ gedi, market, version, state, lastWrite }: PersonView) {
  return {
    ...state.fields,
    gedi,
    market,
    version,
    removed: state.removed,
    deregistered: state.deregistered,
    ...(state.mergedInto === undefined ? {} : { merged: { gedi: state.mergedInto } }),
    ...(lastWrite === undefined ? {} : { lastWrite }),
  };
}

/** The default layout: flat bodies, 200s, newest first, a `next` URL, `{ error: {...} }`. */
export const standardLayout: ResponseLayout = {
  order: 'newest-first',
  pageSize: 500,
  paging: 'next-url',
  listKeys: { consumers: 'items', subscriptions: 'items' },
  cursorParam: 'pageToken',
  unsupportedMediaTypeStatus: 400,
  personWritten: ({ id, gedi }) => ({ status: 200, body: { id, ...(gedi === undefined ? {} : { gedi }) } }),
  personDeleted: ({ id, gedi }) => ({ status: 202, body: { id, gedi, status: 'ACCEPTED' } }),
  person: (view) => ({ status: 200, body: personRecord(view) }),
  pending: (gedi) => ({ status: 200, body: { gedi, status: 'PENDING' } }),
  found: (views, echo) => ({
    status: 200,
    body: {
      ...(echo?.as === 'request' ? { query: { legalId: echo.legalId } } : {}),
      ...(echo?.as === 'field' ? { legalId: echo.legalId } : {}),
      results: views.map(personRecord),
      count: views.length,
    },
  }),
  consumersAccepted: (records) => ({
    status: 200,
    body: { received: records.length, consumers: records.map(({ consumerId }) => ({ consumerId, state: 'PENDING' })) },
  }),
  consumer: ({ record, state, gedi }) => ({
    consumerId: record.consumerId,
    market: record.market,
    data: record.data,
    state,
    ...(gedi === undefined ? {} : { gedi }),
  }),
  subscription: ({ person }) => personRecord(person),
  screening: ({ input: _input, ...result }) => ({ status: 200, body: result }),
  error: (error) => ({
    status: error.status,
    headers: error.headers,
    body: {
      error: { code: error.code, message: error.message, ...(error.field === undefined ? {} : { field: error.field }) },
    },
  }),
};
