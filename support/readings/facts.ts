// Owns reading documented facts from answers of undocumented layout, by one rule of evidence (docs/DESIGN.md, "The
// rule of evidence"): a field of the record a fact is about, never a copy beside it, a relative's or an echo's.
import {
  affirms,
  denies,
  fieldText,
  isRecord,
  listItems,
  normalKey,
  ownFields,
  parentsOf,
  scalarsIn,
  words,
  type Field,
  type JsonRecord,
  type Located,
} from './json.js';

export interface Reading {
  holds: boolean;
  /** `$.hits[0].category = "PEP"`: what made it hold (empty when it does not). */
  evidence: string[];
  looked: string;
  /** What it found where it looked, in one clause: `$.status.deregistered = false`, `removed: not in the record`. */
  found: string;
  /** It held on the client's own value shown back at the path it was sent (a layout file's `by: as-sent`). */
  asSent?: boolean;
}

/** A reading that holds on its evidence; `found` is the evidence, or what was there instead. */
export function reading(evidence: string[], looked: string, instead: string, found = evidence.join(', ')): Reading {
  return { holds: evidence.length > 0, evidence, looked, found: evidence.length > 0 ? found : instead };
}

const show = (value: unknown): string => JSON.stringify(value);

/** The first three of `items`, and how many more: a finding stays one clause however long the list. */
export function firstFew(items: string[]): string {
  return items.length > 3 ? `${items.slice(0, 3).join(', ')} and ${items.length - 3} more` : items.join(', ');
}

/** Keys under which a person record (operations 4, 6, 7) carries its legal id: a value, an object or earlier ones. */
const LEGAL_ID_KEY = new RegExp(
  '^(legalids?|deprecatedlegalids|identitynumber|socialsecuritynumber|ssn|nin|pin|nationalid|nationalidnumber|' +
    'nationalidentitynumber|personalidentitynumber|personalnumber|personnummer|fodselsnummer|cpr|hetu|identifiers)$',
);
const isLegalIdKey = (key: string): boolean => LEGAL_ID_KEY.test(normalKey(key));
/** Keys under which a record carries its own gedi: `gedi`, and the `personGedi` of a list entry. */
const isGediKey = (key: string): boolean => /^(person|subject|record)?gedi$/.test(normalKey(key));
/** A normalized key of an object that echoes the request (the vendor's `companyInput` too): never a person. */
const ECHO_KEY = /^(query|request|search|searchcriteria|criteria|filters?|params|parameters|meta|echo)$|input$/;
const isEchoKey = (name: string): boolean => ECHO_KEY.test(name);

const MERGE_KEYS = new Set([
  'merged',
  'mergedinto',
  'mergedwith',
  'mergedto',
  'mergetarget',
  'mergedgedi',
  'mergedintogedi',
  'survivinggedi',
  'survivor',
  'replacedby',
]);

/** A key whose contents are another record's (a merge) or the request's (an echo), never the record's own. */
const isOthersKey = (name: string): boolean => MERGE_KEYS.has(name) || isEchoKey(name);

/** Keys a layout wraps a record in (`{ "person": … }`, `{ "data": { "attributes": … } }`): its own levels. */
const ENVELOPE_KEY = /^(person|data|attributes|record|payload|resource|entity|item|result)$/;
/** Keys of the list a find or list answer holds its results in: beside it, the query or paging, never a person. */
const RESULT_LIST_KEY = new RegExp(
  '^(results?|items|persons|people|records|entries|content|data|matches|hits|candidates|elements|rows|' +
    'subscriptions|consumers)$',
);
/** Fields of a person beyond its identifiers and state: its legal id, names, dates, addresses, relations. */
const PERSON_FIELD = /name|birth|death|gender|citizenship|address|phone|email|relationship|relations|relatives/;

/** What an object names as identity among its own fields: gedis, ids and legal ids. */
function identityOf(object: JsonRecord): string[] {
  return Object.entries(object).flatMap(([key, value]) => {
    if (isLegalIdKey(key)) {
      return scalarsIn(value).flatMap(({ value: id }) => (typeof id === 'string' && id !== '' ? [id] : []));
    }
    return (isGediKey(key) || normalKey(key) === 'id') && typeof value === 'string' && value !== '' ? [value] : [];
  });
}

/** The record's own levels: it and its envelopes or, where they name nobody, the first object inside that does. */
function homeLevels(record: JsonRecord): JsonRecord[] {
  const envelopes = (object: JsonRecord): JsonRecord[] => [
    object,
    ...Object.entries(object).flatMap(([key, value]) =>
      ENVELOPE_KEY.test(normalKey(key)) && isRecord(value) ? envelopes(value) : [],
    ),
  ];
  const own = envelopes(record);
  if (own.some((level) => identityOf(level).length > 0)) return own;
  const named = Object.entries(record).find(
    ([key, value]) =>
      isRecord(value) && !isOthersKey(normalKey(key)) && homeLevels(value).some((l) => identityOf(l).length > 0),
  );
  return named ? [...own, ...homeLevels(named[1] as JsonRecord)] : own;
}

/**
 * The record's own fields at any depth of its objects (`data`, `status.removed`), never in its lists, nor in an object
 * that is not its own: an echo of the request, a merge target, a copy (an object that repeats the record's gedi, id
 * or legal id, as an audit trail or an echoed request does, under any key) or another person (one naming a gedi or
 * legal id of its own).
 */
function recordFields(record: unknown, path = '$'): Field[] {
  if (!isRecord(record)) return [];
  const home = homeLevels(record);
  const identity = new Set(home.flatMap(identityOf));
  const own = (key: string, value: JsonRecord): boolean => {
    if (home.includes(value) || isLegalIdKey(key)) return true;
    if (isOthersKey(normalKey(key))) return false;
    const ids = identityOf(value);
    if (ids.some((id) => identity.has(id))) return false;
    return !Object.keys(value).some((name) => isGediKey(name) || isLegalIdKey(name));
  };
  const walk = (object: JsonRecord, at: string): Field[] =>
    Object.entries(object).flatMap(([key, value]) => {
      const field = { path: `${at}.${key}`, key, value };
      return isRecord(value) && own(key, value) ? [field, ...walk(value, field.path)] : [field];
    });
  return walk(record, path);
}

/** The entries of the record's own lists (its relatives), never of a copy's or another person's. */
const ownListItems = (record: unknown): Located[] =>
  recordFields(record).flatMap(({ path, value }) =>
    Array.isArray(value)
      ? value.flatMap((element, index) => (isRecord(element) ? [{ item: element, path: `${path}[${index}]` }] : []))
      : [],
  );

/** The list items with `value` among their own fields: the consumer with that id, the relative with that legal id. */
export function recordsOwning(body: unknown, value: string): Located[] {
  return listItems(body).filter(({ item }) => ownsValue(item, value).holds);
}

/** An object naming a gedi or legal id among its own fields, outside an echo of the request or a merge. */
const namesPerson = (object: JsonRecord): boolean =>
  ownFields(object).some(
    ({ path, key }) => !parentsOf(path).some(isOthersKey) && (isGediKey(key) || isLegalIdKey(key)),
  );

/**
 * The person records of an answer, outermost first: what lies inside one (relatives, merge history) is its own. An
 * object that holds a list of results is not a person: its persons are entries of that list, and a field beside the
 * list that repeats the query is the query.
 */
export function personRecords(answer: unknown, path = '$'): Located[] {
  if (Array.isArray(answer)) return answer.flatMap((element, index) => personRecords(element, `${path}[${index}]`));
  if (!isRecord(answer)) return [];
  const isResults = ([key, value]: [string, unknown]) => RESULT_LIST_KEY.test(normalKey(key)) && Array.isArray(value);
  // Beside a list of results, any other key (`legalId`, `metadata`, under whatever name) is about the query.
  const lists = Object.entries(answer).filter(isResults);
  if (lists.length > 0) return lists.flatMap(([key, value]) => personRecords(value, `${path}.${key}`));
  if (namesPerson(answer)) return [{ item: answer, path }];
  return Object.entries(answer).flatMap(([key, value]) =>
    isOthersKey(normalKey(key)) ? [] : personRecords(value, `${path}.${key}`),
  );
}

/** The record's own legal ids, in its fields and its lists of legal ids; never a relative's, a merge's or a copy's. */
function legalIdFields(record: unknown, path = '$'): { path: string; value: unknown }[] {
  return recordFields(record, path)
    .filter(({ path: at, key }) => isLegalIdKey(key) && !parentsOf(at).some(isLegalIdKey))
    .flatMap(({ path: at, value }) => scalarsIn(value, at));
}

/** The record's own gedi: a gedi of its own fields, not one a merge field names or a copy or an echo carries. */
function personGedis(record: unknown): Field[] {
  return recordFields(record).filter(({ key }) => isGediKey(key));
}

const carrying = ({ item, path }: Located, legalId: string): string[] =>
  legalIdFields(item, path)
    .filter((field) => field.value === legalId)
    .map(fieldText);

/** State fields (status, state, …) of a record: what a record says of its state, never a person field. */
const STATE_KEY = /^(status|state|statuses|states|flags|(person|record|lifecycle|registration|civil)status)$/;
const underState = ({ path }: Field): boolean => parentsOf(path).some((parent) => STATE_KEY.test(parent));

/** A record with nothing of the person beyond identifiers and a state (`{ "gedi": G, "status": "PENDING" }`). */
const isPlaceholder = (record: unknown): boolean =>
  !recordFields(record).some(
    (field) => !underState(field) && (isLegalIdKey(field.key) || PERSON_FIELD.test(normalKey(field.key))),
  );

interface KnownPerson {
  gedi: string;
  person: { legalId: string };
}

const paths = (records: Located[]): string => records.map(({ path }) => path).join(', ') || 'none';
const NO_PERSON = 'no person record in the answer';

const EXCERPT_CHARS = 400;
/** A record as evidence: where it is, whose it is (its own legal ids and gedi), then the record itself, cut short. */
function shown({ item, path }: Located): string {
  const own = [...legalIdFields(item), ...personGedis(item)].filter((field) => typeof field.value === 'string');
  const text = show(item);
  return (
    `${path} (${own.map(fieldText).join(', ') || 'no legal id or gedi of its own'}): ` +
    `${text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text}`
  );
}

/** Some person record of the answer carries `legalId` as its own: the matching person is there. */
export function personWithLegalId(answer: unknown, legalId: string): Reading {
  const records = personRecords(answer);
  const ownIds = ({ item, path }: Located) =>
    firstFew(legalIdFields(item, path).map(fieldText)) || 'no legal id of its own';
  return reading(
    records.flatMap((record) => carrying(record, legalId)),
    `the answer's ${records.length} person record(s) (${paths(records)}), for ${show(legalId)} among their own ` +
      'legal ids',
    records.length === 0 ? NO_PERSON : `their own legal ids: ${firstFew(records.map(ownIds))}`,
  );
}

/**
 * The answer (a record, list or pages) holds a record whose own gedi or legal id is the person's, not a relative's,
 * with something of the person beyond its identifiers: a placeholder is not yet the person's record.
 */
export function listsPerson(answer: unknown, { gedi, person: { legalId } }: KnownPerson): Reading {
  const records = personRecords(answer);
  const own = records.filter(
    (record) => carrying(record, legalId).length > 0 || personGedis(record.item).some(({ value }) => value === gedi),
  );
  const whole = own.filter(({ item }) => !isPlaceholder(item));
  const placeholders = own.filter((record) => !whole.includes(record));
  return reading(
    whole.map(shown),
    `the ${records.length} record(s) of the answer, for gedi ${show(gedi)} or legal id ` +
      `${show(legalId)} as their own (not a relative's), with a field of the person (a name, a legal id, a date)`,
    records.length === 0
      ? NO_PERSON
      : placeholders.length > 0
        ? `a placeholder, not yet the person's record: ${firstFew(placeholders.map(shown))}`
        : `none of the ${records.length} person record(s) is its own`,
    `a record of its own: ${paths(whole)}`,
  );
}

/** Person records of a find answer without the legal id asked for; none in an answer with no person (204, []). */
export function personsWithoutLegalId(answer: unknown, legalId: string): Reading {
  const records = personRecords(answer);
  const strangers = records.filter((record) => carrying(record, legalId).length === 0);
  return reading(
    strangers.map(shown),
    `the answer's ${records.length} person record(s) (${paths(records)}), each for ${show(legalId)} among its ` +
      "own legal ids; relatives and other lists inside a record are that person's own",
    records.length === 0 ? NO_PERSON : `each of the ${records.length} person record(s) carries it`,
    `${strangers.length} record(s) without it: ${firstFew(strangers.map(({ path }) => path))}`,
  );
}

const CONSUMER_STATE_KEY = new RegExp(`${STATE_KEY.source}|^(consumer|identification|match)(state|status)$`);

/** The two kinds of evidence of a state transition, each named on its evidence line. */
const COMPUTED = 'a state the server computed';
export const AS_SENT = 'the mark as the client sent it, on the record itself';

/** Where a request carries each documented mark (Resources): of the person, and of a relative (a death by its date). */
const PERSON_MARKS: Record<string, string> = { removed: 'removed', deregistered: 'deregistered' };
const RELATIVE_MARKS: Record<string, string> = { deceased: 'dateOfDeath', deregistered: 'deregistered' };

const isFlag = (flag: string): string => `is${flag[0]!.toUpperCase()}${flag.slice(1)}`;

interface FlagOptions {
  stateKey?: RegExp;
  /** The key the request carries the mark in; every other affirmation is a state the server computed. */
  mark?: string;
}

/**
 * The record at `path` has a field named `flag` or is<Flag> that affirms it, or a state field whose word is `flag`, or
 * the mark as the request carries it; never where a field of its own named `flag` or is<Flag> says no.
 */
function flagAt(
  record: unknown,
  path: string,
  flag: string,
  { stateKey = STATE_KEY, mark }: FlagOptions = {},
): Reading {
  const wanted = normalKey(flag);
  const markKey = mark === undefined ? undefined : normalKey(mark);
  const fields = recordFields(record, path);
  const named = fields.filter(({ key }) => [wanted, `is${wanted}`].includes(normalKey(key)));
  const states = fields.filter(({ key, value }) => stateKey.test(normalKey(key)) && words(value).length > 0);
  const sent = fields.filter(
    (field) =>
      normalKey(field.key) === markKey &&
      !underState(field) &&
      (markKey === wanted ? affirms(field.value) : typeof field.value === 'string' && field.value !== ''),
  );
  const computed = [
    ...named.filter((field) => affirms(field.value) && !sent.includes(field)),
    ...states.filter(({ value }) => words(value).some((word) => normalKey(word) === wanted)),
  ];
  const denied = named.some(({ value }) => denies(value));
  const kind = (text: string) => (field: Field) =>
    mark === undefined ? fieldText(field) : `${fieldText(field)} (${text})`;
  const markWord = markKey === undefined || markKey === wanted ? '' : `, and ${mark} as the request sends it`;
  return {
    ...reading(
      denied ? [] : [...computed.map(kind(COMPUTED)), ...sent.map(kind(AS_SENT))],
      `${flag} and ${isFlag(flag)} (true), and the state fields (status, state, statuses, states, …) for ` +
        `"${flag.toUpperCase()}"${markWord}`,
      [...new Set([...named, ...states, ...sent])].map(fieldText).join(', ') ||
        `${flag}: not in ${path === '$' ? 'the record' : path}`,
    ),
  };
}

/** A flag of the person a record is about (its own fields, not its relatives' or a copy's). */
export const personFlag = (record: unknown, flag: string): Reading =>
  flagAt(record, '$', flag, { mark: PERSON_MARKS[normalKey(flag)] });

/** The documented consumer state IDENTIFIED, on the consumer's own record. */
export const identified = (consumer: unknown): Reading =>
  flagAt(consumer, '$', 'IDENTIFIED', { stateKey: CONSUMER_STATE_KEY });

/** A flag of the related person with `legalId`, on that relative's own entry of the record. */
export function relativeFlag(record: unknown, legalId: string, flag: string): Reading {
  const entries = ownListItems(record).filter(({ item }) => ownsValue(item, legalId).holds);
  const mark = RELATIVE_MARKS[normalKey(flag)];
  const readings = entries.map(({ item, path }) => flagAt(item, path, flag, { mark }));
  const found = readings.map((each) => each.found).join('; ') || `no list entry carries the legal id ${legalId}`;
  return {
    ...reading(
      readings.flatMap((each) => each.evidence),
      `the list entries carrying legal id ${legalId}: ${readings[0]?.looked ?? `${flag} and ${isFlag(flag)}`}`,
      found,
      found,
    ),
  };
}

const BY_LEGAL_ID = "the source gedi answers the target's record, which names no gedi, by the target's legal id";

/**
 * The source's record shows it merged into the target. Preferred, as the server's own: the source gedi answers the
 * target's record (its own gedi is the target's or, where it names no gedi as v3 records do, its own legal ids are
 * the target's and not the source's), or a merge field the client did not send names the target. Then the client's
 * own mark, `merged` naming the target on the record itself. Never where the record says it is not merged.
 */
export function mergedInto(record: unknown, source: KnownPerson, target: KnownPerson): Reading {
  const fields = recordFields(record);
  const namesTarget = (value: unknown): boolean => value === target.gedi || ownsValue(value, target.gedi).holds;
  const mergeFields = fields.filter(({ key }) => MERGE_KEYS.has(normalKey(key)));
  const gedis = personGedis(record);
  const hasGedi = (gedi: string) => gedis.some(({ value }) => value === gedi);
  const legalIds = gedis.length === 0 ? legalIdFields(record) : [];
  const hasSourceId = legalIds.some(({ value }) => value === source.person.legalId);
  const denied = fields.some(({ key, value }) => ['merged', 'ismerged'].includes(normalKey(key)) && denies(value));
  const naming = denied ? [] : mergeFields.filter(({ value }) => namesTarget(value));
  const sent = naming.filter((field) => normalKey(field.key) === 'merged' && !underState(field));
  // Each field that shows the merge, with why it counts: the server's own first, the client's mark last.
  const shown: { field: { path: string; value: unknown }; why: string }[] = [
    ...(hasGedi(target.gedi) && !hasGedi(source.gedi)
      ? gedis
          .filter(({ value }) => value === target.gedi)
          .map((field) => ({ field, why: `${COMPUTED}: the source gedi answers the target's own record` }))
      : []),
    ...legalIds
      .filter(({ value }) => !hasSourceId && value === target.person.legalId)
      .map((field) => ({ field, why: `${COMPUTED}: ${BY_LEGAL_ID}` })),
    ...naming
      .filter((field) => !sent.includes(field))
      .map((field) => ({ field, why: `${COMPUTED}: a merge field the client does not send` })),
    ...sent.map((field) => ({ field, why: AS_SENT })),
  ];
  const evidence = shown.map(({ field, why }) => `${fieldText(field)} (${why})`);
  const [targetId, sourceId] = [show(target.person.legalId), show(source.person.legalId)];
  return {
    ...reading(
      evidence,
      `the record's own gedi for ${target.gedi}, where it names no gedi its own legal ids for the target's ` +
        `${targetId} without the source's ${sourceId}, and its own merge fields (${[...MERGE_KEYS].join(', ')}) ` +
        `for ${target.gedi}`,
      firstFew([
        ...(mergeFields.length === 0 ? ['merged: not in the record'] : []),
        ...[...mergeFields, ...gedis, ...legalIds].map(fieldText),
      ]),
    ),
  };
}

/** The person's own record in a list (a subscription entry) carries `value` as one of its fields. */
export function ownsValue(record: unknown, value: string): Reading {
  return reading(
    recordFields(record)
      .filter((field) => field.value === value)
      .map(fieldText),
    `the record's own fields for ${show(value)}`,
    `${show(value)}: not among the record's own values`,
  );
}
