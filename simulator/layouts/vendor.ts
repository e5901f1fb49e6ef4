// The vendor's published shapes (../../shared/vendor-public-notes.md) wherever the documentation
// says "not shown": the v3 person object, find as one object or 204, uploads 202 with no body,
// lists paged by `nextPageToken`, the vendor's status table and error model, screening answers
// with `screeningResult`. What the pages do not show is still a guess, said so in simulator/README.md.
import { STATUS_CODES } from 'node:http';
import type { ConsumerView } from '../consumer-ops.js';
import type { HttpError } from '../errors.js';
import type { Fields } from '../persons.js';
import type { PersonView } from '../person-queries.js';
import type { ScreeningMatch, ScreeningResult } from '../screening.js';
import type { ResponseLayout } from './layout.js';

/** The statuses the vendor's own table lists (there is no 405, 410, 413, 415 or 422 in it). */
const STATUS_TABLE = new Set([200, 201, 202, 204, 400, 401, 403, 404, 409, 429, 500, 503]);

/**
 * A refusal with a status outside the table gets the table's nearest: 404 for a method a path does not serve, 400 for
 * the rest of the client's errors.
 */
function tableStatus(status: number): number {
  if (STATUS_TABLE.has(status)) return status;
  if (status >= 500) return 500;
  return status === 405 ? 404 : 400;
}

type DatePrecision = 'DAY' | 'MONTH' | 'YEAR';

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** A date as `…Date` plus `…DatePrecision`, from a full date or from year / month / day parts. */
function datedAs(
  prefix: string,
  date: unknown,
  parts: { year?: unknown; month?: unknown; day?: unknown } = {},
): Fields {
  if (isText(date)) return { [`${prefix}Date`]: date, [`${prefix}DatePrecision`]: 'DAY' };
  const [year, month, day] = [parts.year, parts.month, parts.day].map((part) =>
    part === undefined || part === null ? undefined : String(part).padStart(2, '0'),
  );
  if (year === undefined) return {};
  const precision: DatePrecision = month === undefined ? 'YEAR' : day === undefined ? 'MONTH' : 'DAY';
  return {
    [`${prefix}Date`]: [year, month, day].filter((part) => part !== undefined).join('-'),
    [`${prefix}DatePrecision`]: precision,
  };
}

/** The request's validity period (dates, or year / month / day parts) as start and end dates with their precisions. */
function validityPeriodOf(period: unknown): Fields | undefined {
  if (typeof period !== 'object' || period === null) return undefined;
  const p = period as Fields;
  return {
    ...datedAs('start', p.startDate, { year: p.startYear, month: p.startMonth, day: p.startDay }),
    ...datedAs('end', p.endDate, { year: p.endYear, month: p.endMonth, day: p.endDay }),
  };
}

/**
 * v3's legal id object: the number, whether it is temporary, its validity period and (for a person) the earlier ones.
 */
function legalIdOf(number: unknown, temporary: unknown, period: unknown): Fields {
  const validityPeriod = validityPeriodOf(period);
  return { identityNumber: number, temporary: temporary === true, ...(validityPeriod ? { validityPeriod } : {}) };
}

/** The legal id object of a v2 legal id entry (a relative's, or an earlier one of a person). */
function legalIdOfEntry(entry: Fields): Fields {
  return legalIdOf(
    entry.socialSecurityNumber,
    entry.socialSecurityNumberTemporary,
    entry.socialSecurityNumberValidityPeriod,
  );
}

/** One first-name list whichever of firstName and firstNames was sent. */
function firstNamesOf(fields: Fields): Fields {
  if (Array.isArray(fields.firstNames)) return { firstNames: fields.firstNames };
  return isText(fields.firstName) ? { firstNames: [fields.firstName] } : {};
}

const PERSONAL_KEYS = ['preferredFirstName', 'additionalName', 'familyName', 'gender', 'citizenship'] as const;

function namesOf(fields: Fields): Fields {
  return {
    ...firstNamesOf(fields),
    ...Object.fromEntries(PERSONAL_KEYS.filter((key) => fields[key] !== undefined).map((key) => [key, fields[key]])),
  };
}

/** A related person in v3 form: its own legal id object, dates with precisions, its own status. */
function relativeOf(entry: Fields): Fields {
  const legalId = (entry.legalId ?? {}) as Fields;
  const deregistered = entry.deregistered === true;
  return {
    relationType: entry.hierarchicalRelationship ?? entry.nonHierarchicalRelationship ?? null,
    ...(entry.legalId === undefined
      ? {}
      : {
          legalId: legalIdOfEntry(legalId),
        }),
    ...namesOf(entry),
    ...datedAs('birth', entry.dateOfBirth),
    ...datedAs('death', entry.dateOfDeath),
    ...datedAs('relationStart', entry.startDate),
    ...datedAs('relationEnd', entry.endDate),
    status: { deceased: entry.deceased === true, deregistered },
    ...(deregistered && isText(entry.deregisteredReason)
      ? { deregistration: { reason: entry.deregisteredReason } }
      : {}),
  };
}

/** Request fields the v3 object shows in a form of its own (legal id, names, dates, flags, relatives). */
const RESHAPED = new Set([
  'id',
  'legalId',
  'socialSecurityNumberTemporary',
  'socialSecurityNumberValidityPeriod',
  'deprecatedLegalIds',
  'firstName',
  'firstNames',
  ...PERSONAL_KEYS,
  'dateOfBirth',
  'dateOfDeath',
  'protectedIdentity',
  'deregisteredReason',
  'deregisteredDate',
  'deregisteredYear',
  'deregisteredMonth',
  'deregisteredDay',
  'relationshipList',
]);

/**
 * The v3 person object: fields at the top level, no wrapper and no `gedi` (the migration guide
 * lists v2's `person.gedi` as removed: the gedi is the address, `…/persons/{gedi}`, and the PUT
 * answer's). The person's state is `status`, as the find answer shows it (`active`, `protected`),
 * with the marks the transitions leave (`removed`, `deregistered`, `deceased`, `merged`); a merge
 * names the person merged into by its gedi, the only way a client can address it.
 */
function vendorPerson({ market, writtenAt, state, lastWrite }: PersonView): Fields {
  const { fields } = state;
  const deceased = isText(fields.dateOfDeath);
  const merged = state.mergedInto !== undefined;
  const updatedTimestamp = new Date(writtenAt).toISOString();
  const deprecated = Array.isArray(fields.deprecatedLegalIds) ? (fields.deprecatedLegalIds as Fields[]) : [];
  return {
    ...(fields.legalId === undefined
      ? {}
      : {
          legalId: {
            ...legalIdOf(
              fields.legalId,
              fields.socialSecurityNumberTemporary,
              fields.socialSecurityNumberValidityPeriod,
            ),
            history: deprecated.map((earlier) => legalIdOfEntry(earlier)),
          },
        }),
    ...namesOf(fields),
    ...datedAs('birth', fields.dateOfBirth),
    ...datedAs('death', fields.dateOfDeath),
    ...Object.fromEntries(Object.entries(fields).filter(([key]) => !RESHAPED.has(key))),
    status: {
      active: !(state.removed || state.deregistered || deceased || merged),
      protected: fields.protectedIdentity === true,
      removed: state.removed,
      deregistered: state.deregistered,
      deceased,
      merged,
    },
    ...(state.deregistered
      ? {
          deregistration: {
            ...(fields.deregisteredReason === undefined ? {} : { reason: fields.deregisteredReason }),
            ...datedAs('deregistration', fields.deregisteredDate, {
              year: fields.deregisteredYear,
              month: fields.deregisteredMonth,
              day: fields.deregisteredDay,
            }),
          },
        }
      : {}),
    ...(merged ? { mergedInto: { gedi: state.mergedInto } } : {}),
    ...(Array.isArray(fields.relationshipList)
      ? { relations: (fields.relationshipList as Fields[]).map(relativeOf) }
      : {}),
    metadata: { updatedTimestamp, sources: [{ name: 'SANDBOX', market, updatedTimestamp }] },
    ...(lastWrite === undefined ? {} : { lastWrite }),
  };
}

/** The screened lists as the vendor names them. */
const LISTS = {
  PEP: { type: 'PEP', name: 'Politically exposed persons' },
  SANCTIONS: { type: 'SANCTION', name: 'Consolidated sanctions list' },
  ADVERSE_MEDIA: { type: 'RCA', name: 'Relatives and close associates' },
} as const;
const LISTS_SCREENED = ['PEP', 'SANCTION', 'RCA'];

function matchOf({ name, category, score, matched, datasets }: ScreeningMatch): Fields {
  return {
    name,
    lists: [LISTS[category]],
    ...(category === 'PEP' ? { pepCategory: 'POLITICIAN' } : {}),
    score,
    ...(matched === false ? { status: 'NO_MATCH' } : {}),
    ...(datasets === undefined ? {} : { datasets }),
  };
}

/**
 * `screeningResult`; near misses (a mutant's candidates) are matches too: the vendor's matches may be false positives.
 */
function screeningResultOf(result: ScreeningResult): Fields {
  const matches = [
    ...result.matches.map(matchOf),
    ...(result.candidates ?? []).map(({ name, score }) => ({ name, lists: [LISTS.SANCTIONS], score })),
  ];
  return {
    numberOfMatches: result.matchCount ?? matches.length,
    matches,
    listsScreened: LISTS_SCREENED,
    ...(result.message === undefined ? {} : { message: result.message }),
  };
}

function screeningOf(result: ScreeningResult): Fields {
  if (result.subject === 'person') return { screeningResult: screeningResultOf(result) };
  return {
    companyInput: result.input,
    verifiedCompany: {
      subjectReference: result.verified?.subjectReference ?? null,
      identified: result.verified !== undefined,
      screenableEntry: true,
      name: result.verified?.name ?? null,
    },
    screeningResult: screeningResultOf(result),
  };
}

/** "Identification ... ends in state IDENTIFIED or NOT_IDENTIFIED"; before it ends, PENDING (a guess). */
function consumerOf({ record, state, gedi }: ConsumerView): Fields {
  return {
    consumerId: record.consumerId,
    market: record.market,
    data: record.data,
    state: state === 'UNIDENTIFIED' ? 'NOT_IDENTIFIED' : state,
    ...(gedi === undefined ? {} : { gedi }),
  };
}

/** The vendor's company-wide error model; `subErrors` name the field, and the value where the check had it. */
function errorOf(error: HttpError, status: number, now: Date): Fields {
  const field = error.field;
  const at = field === undefined ? -1 : Math.max(field.lastIndexOf('.'), field.lastIndexOf(']'));
  return {
    status,
    statusText: STATUS_CODES[status] ?? 'Error',
    message: error.message,
    timestamp: now.toISOString(),
    subErrors:
      field === undefined
        ? []
        : [
            {
              object: at < 0 ? 'request' : field.slice(0, field[at] === ']' ? at + 1 : at),
              field: field.slice(at + 1),
              rejectedValue: error.rejected?.value ?? null,
              message: error.message,
            },
          ],
  };
}

export const vendorLayout: ResponseLayout = {
  order: 'oldest-first',
  paging: 'page-token',
  pageSize: 10,
  listKeys: { consumers: 'consumers', subscriptions: 'persons' },
  cursorParam: 'pageToken',
  unsupportedMediaTypeStatus: 400,
  personWritten: ({ id, gedi, created }) => ({
    status: created ? 201 : 200,
    body: { id, ...(gedi === undefined ? {} : { gedi }) },
  }),
  personDeleted: () => ({ status: 204 }),
  person: (view) => ({ status: 200, body: vendorPerson(view) }),
  // The vendor's status is an object; a placeholder spells "not yet" in it.
  pending: (gedi) => ({ status: 200, body: { gedi, status: { active: false, pending: true } } }),
  // One person object, or 204 with no body; several matches (another client's person with the same legal id) answer the
  // earliest created. An echo takes the form of the vendor's company answer, whose `companyInput` echoes the request.
  found: (views, echo) => {
    if (echo?.as === 'request') return { status: 200, body: { personInput: { legalId: echo.legalId } } };
    if (echo) return { status: 200, body: { results: [], meta: { legalId: echo.legalId } } };
    return views.length === 0 ? { status: 204 } : { status: 200, body: vendorPerson(views[0]!) };
  },
  consumersAccepted: () => ({ status: 202 }),
  consumer: consumerOf,
  subscription: ({ person }) => vendorPerson(person),
  screening: (result) => ({ status: 200, body: screeningOf(result) }),
  error: (error) => {
    const status = tableStatus(error.status);
    const { allow: _allow, ...headers } = error.headers;
    return {
      status,
      headers: status === error.status ? error.headers : headers,
      body: errorOf(error, status, new Date()),
    };
  },
};
