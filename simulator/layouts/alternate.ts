import type { PersonView } from '../person-queries.js';
import type { ScreeningResult } from '../screening.js';
import type { ResponseLayout } from './layout.js';

/** The person under `attributes`, with the flags folded into one `status` (documented names kept). */
function personRecord({ gedi, market, version, state, lastWrite }: PersonView) {
  const status = state.removed ? 'REMOVED' : state.mergedInto !== undefined ? 'MERGED' : 'ACTIVE';
  return {
    gedi,
    market,
    revision: version,
    status,
    ...(state.mergedInto === undefined ? {} : { mergedInto: state.mergedInto }),
    attributes: { ...state.fields, deregistered: state.deregistered },
    ...(lastWrite === undefined ? {} : { lastWrite }),
  };
}

function screeningRecord(result: ScreeningResult) {
  return {
    id: result.screeningId,
    createdAt: result.timestamp,
    reference: result.reference,
    provider: result.provider,
    outcome: result.matches.some(({ matched }) => matched !== false) ? 'HIT' : 'NO_HIT',
    risk: result.riskLevel,
    ...(result.matchCount === undefined ? {} : { hitCount: result.matchCount }),
    hits: result.matches.map(({ name, category, pep, description, score, matched, datasets }) => ({
      type: category,
      pep,
      matchedName: name,
      details: description,
      confidence: score,
      ...(matched === false ? { status: 'NO_MATCH' } : {}),
      ...(datasets === undefined ? {} : { datasets }),
    })),
    ...(result.candidates === undefined ? {} : { nearMisses: result.candidates }),
  };
}

/**
 * A second, equally contract-keeping server: `{ data }` envelopes, 201/202/204, oldest first,
 * cursor paging with a `Link` header, 410 for deleted persons, RFC 9457 problem details.
 */
export const alternateLayout: ResponseLayout = {
  order: 'oldest-first',
  pageSize: 500,
  paging: 'link-header',
  listKeys: { consumers: 'data', subscriptions: 'data' },
  cursorParam: 'cursor',
  unsupportedMediaTypeStatus: 415,
  personWritten: ({ id, gedi, created }) => ({
    status: created ? 201 : 200,
    body: { data: { clientReference: id, ...(gedi === undefined ? {} : { gedi }) } },
  }),
  personDeleted: () => ({ status: 204 }),
  person: (view) => ({ status: 200, body: { data: personRecord(view) } }),
  pending: (gedi) => ({ status: 200, body: { data: { gedi, status: 'PENDING' } } }),
  found: (views, echo) =>
    views.length === 0 && !echo
      ? {
          status: 404,
          headers: { 'content-type': 'application/problem+json' },
          body: { type: 'about:blank', title: 'No match', status: 404, detail: 'no person matches the legal id' },
        }
      : {
          status: 200,
          body: {
            data: views.map(personRecord),
            ...(echo
              ? { meta: echo.as === 'request' ? { request: { legalId: echo.legalId } } : { legalId: echo.legalId } }
              : {}),
          },
        },
  consumersAccepted: (records) => ({ status: 202, body: { data: { accepted: records.length } } }),
  consumer: ({ record, state, gedi }) => ({
    consumerId: record.consumerId,
    market: record.market,
    data: record.data,
    status: state,
    ...(gedi === undefined ? {} : { gedi }),
  }),
  subscription: ({ person, subscribedAt }) => ({
    subscribedAt: new Date(subscribedAt).toISOString(),
    person: personRecord(person),
  }),
  screening: (result) => ({ status: 200, body: { data: screeningRecord(result) } }),
  error: (error) => ({
    status: error.code === 'gone' ? 410 : error.status,
    headers: { ...error.headers, 'content-type': 'application/problem+json' },
    body: {
      type: `urn:sandbox-simulator:${error.code}`,
      title: error.code.replaceAll('_', ' '),
      status: error.code === 'gone' ? 410 : error.status,
      detail: error.message,
      ...(error.field === undefined ? {} : { invalidParams: [{ name: error.field, reason: error.message }] }),
    },
  }),
};
