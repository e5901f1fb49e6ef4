// Owns reading documented facts from answers of undocumented layout, on affirmative evidence: a field of the
// record a fact is about, never a word elsewhere ("No PEP match found", a relative's flag, the request echoed back).

export type JsonRecord = Record<string, unknown>;

/** All values under `key` (case-insensitive) at any depth, outermost first. */
export function findValues(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body.flatMap((item) => findValues(item, key));
  if (!isRecord(body)) return [];
  const own = Object.entries(body).filter(([name]) => name.toLowerCase() === key.toLowerCase());
  return [...own.map(([, value]) => value), ...Object.values(body).flatMap((value) => findValues(value, key))];
}

/** True when the scalar occurs anywhere in the body (strings compared exactly, never as substrings). */
export function containsValue(body: unknown, value: string | number | boolean): boolean {
  if (body === value) return true;
  if (Array.isArray(body)) return body.some((item) => containsValue(item, value));
  if (isRecord(body)) return Object.values(body).some((item) => containsValue(item, value));
  return false;
}

/** Keys compared without case, `_` or `-`: `is_removed`, `isRemoved` and `IS-REMOVED` are one name. */
export function normalKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface Reading {
  holds: boolean;
  /** `$.hits[0].category = "PEP"`: what made it hold (empty when it does not). */
  evidence: string[];
  looked: string;
  /** What it found where it looked, in one clause: `$.status.deregistered = false`, `removed: not in the record`. */
  found: string;
}

/** What a wait checks of a record: a reading, whose finding a timeout reports, or a plain yes or no. */
export type RecordCheck = (record: unknown) => Reading | boolean;

/** A reading that holds on its evidence; `found` is the evidence, or what was there instead. */
export function reading(evidence: string[], looked: string, instead: string, found = evidence.join(', ')): Reading {
  return { holds: evidence.length > 0, evidence, looked, found: evidence.length > 0 ? found : instead };
}

const show = (value: unknown): string => JSON.stringify(value);

interface Field {
  path: string;
  key: string;
  value: unknown;
}

export const fieldText = ({ path, value }: { path: string; value: unknown }): string => `${path} = ${show(value)}`;

/** The first three of `items`, and how many more: a finding stays one clause however long the list. */
export function firstFew(items: string[]): string {
  return items.length > 3 ? `${items.slice(0, 3).join(', ')} and ${items.length - 3} more` : items.join(', ');
}

/** The record's own fields at any depth of its objects (`data`, `status.removed`), never in its lists. */
export function ownFields(record: unknown, path = '$'): Field[] {
  if (!isRecord(record)) return [];
  return Object.entries(record).flatMap(([key, value]) => [
    { path: `${path}.${key}`, key, value },
    ...ownFields(value, `${path}.${key}`),
  ]);
}

/** `$.data.status.removed` → data, status. */
export const parentsOf = (path: string): string[] => path.split('.').slice(1, -1).map(normalKey);

/** A string, or the strings of a list: the words a state or category field says. */
export const words = (value: unknown): string[] => [value].flat().filter((item) => typeof item === 'string');

const AFFIRMATIVE = new Set([true, 'true', 'TRUE', 'True', 'yes', 'YES', 'Y']);
export const affirms = (value: unknown): boolean => AFFIRMATIVE.has(value as string | boolean);

export interface Located {
  item: JsonRecord;
  path: string;
}

/** Every object that is an element of a list, at any depth, with its path; `inList` picks lists by their key. */
export function listItems(body: unknown, inList = (_key: string) => true, path = '$', key = ''): Located[] {
  if (Array.isArray(body)) {
    return body.flatMap((element, index) => [
      ...(isRecord(element) && inList(key) ? [{ item: element, path: `${path}[${index}]` }] : []),
      ...listItems(element, inList, `${path}[${index}]`),
    ]);
  }
  if (!isRecord(body)) return [];
  return Object.entries(body).flatMap(([name, value]) => listItems(value, inList, `${path}.${name}`, name));
}

/** The list items with `value` among their own fields: the consumer with that id, the relative with that legal id. */
export function recordsOwning(body: unknown, value: string): Located[] {
  return listItems(body).filter(({ item }) => ownsValue(item, value).holds);
}

/** Keys under which a person record (operations 4, 6, 7) carries its legal id: a value, an object or earlier ones. */
const LEGAL_ID_KEY = new RegExp(
  '^(legalids?|deprecatedlegalids|identitynumber|socialsecuritynumber|ssn|nationalid|nationalidentitynumber|' +
    'personalidentitynumber|personalnumber|identifiers)$',
);
const isLegalIdKey = (key: string): boolean => LEGAL_ID_KEY.test(normalKey(key));
/** A normalized key of an object that echoes the request (the vendor's `companyInput` too): never a person. */
const ECHO_KEY = /^(query|request|search|searchcriteria|criteria|filters?|params|parameters)$|input$/;
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

/** The answer without the parts that echo the request: what the target says of its own. */
export function withoutEchoes(answer: unknown): unknown {
  if (Array.isArray(answer)) return answer.map(withoutEchoes);
  if (!isRecord(answer)) return answer;
  const kept = Object.entries(answer).filter(([key]) => !isEchoKey(normalKey(key)));
  return Object.fromEntries(kept.map(([key, value]) => [key, withoutEchoes(value)]));
}

/** The person records of an answer, outermost first: what lies inside one (relatives, merge history) is its own. */
export function personRecords(answer: unknown, path = '$'): Located[] {
  if (Array.isArray(answer)) return answer.flatMap((element, index) => personRecords(element, `${path}[${index}]`));
  if (!isRecord(answer)) return [];
  // A person record has a gedi or a legal id among its own fields, outside an echo of the request.
  const own = ({ path: at, key }: Field) =>
    !parentsOf(at).some(isEchoKey) && (normalKey(key) === 'gedi' || isLegalIdKey(key));
  if (ownFields(answer).some(own)) return [{ item: answer, path }];
  return Object.entries(answer).flatMap(([key, value]) =>
    isEchoKey(normalKey(key)) ? [] : personRecords(value, `${path}.${key}`),
  );
}

/** The record's own legal ids, in its fields and its lists of legal ids; never a relative's, a merge's or an echo's. */
function legalIdFields(value: unknown, path = '$', underLegalIdKey = false): { path: string; value: unknown }[] {
  if (Array.isArray(value))
    return underLegalIdKey ? value.flatMap((element, index) => legalIdFields(element, `${path}[${index}]`, true)) : [];
  if (!isRecord(value)) return underLegalIdKey ? [{ path, value }] : [];
  return Object.entries(value).flatMap(([key, inner]) =>
    isOthersKey(normalKey(key)) ? [] : legalIdFields(inner, `${path}.${key}`, underLegalIdKey || isLegalIdKey(key)),
  );
}

/** The record's own gedi: a `gedi` of its own fields, not one a merge field names or an echo of the request carries. */
function personGedis(record: unknown): Field[] {
  return ownFields(record).filter(({ path, key }) => normalKey(key) === 'gedi' && !parentsOf(path).some(isOthersKey));
}

const carrying = ({ item, path }: Located, legalId: string): string[] =>
  legalIdFields(item, path)
    .filter((field) => field.value === legalId)
    .map(fieldText);

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

/** The answer (a record, list or pages) holds a record whose own gedi or legal id is the person's, not a relative's. */
export function listsPerson(answer: unknown, { gedi, person: { legalId } }: KnownPerson): Reading {
  const records = personRecords(answer);
  const own = records.filter(
    (record) => carrying(record, legalId).length > 0 || personGedis(record.item).some(({ value }) => value === gedi),
  );
  return reading(
    own.map(shown),
    `the ${records.length} record(s) of the answer, for gedi ${show(gedi)} or legal id ` +
      `${show(legalId)} as their own (not a relative's)`,
    records.length === 0 ? NO_PERSON : `none of the ${records.length} person record(s) is its own`,
    `a record of its own: ${paths(own)}`,
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

/** Fields that hold a record's state as words: `status: "REMOVED"`, `states: ["DECEASED"]`. */
const STATE_KEY = /^(status|state|statuses|states|flags|(person|record|lifecycle|registration|civil)status)$/;
const CONSUMER_STATE_KEY = new RegExp(`${STATE_KEY.source}|^(consumer|identification|match)(state|status)$`);

const isFlag = (flag: string): string => `is${flag[0]!.toUpperCase()}${flag.slice(1)}`;

/** The record at `path` has a field named `flag` or is<Flag> that affirms it, or a state field whose word is `flag`. */
function flagAt(record: unknown, path: string, flag: string, stateKey = STATE_KEY): Reading {
  const wanted = normalKey(flag);
  const fields = ownFields(record, path);
  const named = fields.filter(({ key }) => [wanted, `is${wanted}`].includes(normalKey(key)));
  const states = fields.filter(({ key, value }) => stateKey.test(normalKey(key)) && words(value).length > 0);
  const evidence = [
    ...named.filter(({ value }) => affirms(value)),
    ...states.filter(({ value }) => words(value).some((word) => normalKey(word) === wanted)),
  ].map(fieldText);
  return reading(
    evidence,
    `${flag} and ${isFlag(flag)} (true), and the state fields (status, state, statuses, states, …) for ` +
      `"${flag.toUpperCase()}"`,
    [...named, ...states].map(fieldText).join(', ') || `${flag}: not in ${path === '$' ? 'the record' : path}`,
  );
}

/** A flag of the person a record is about (its own fields, not its relatives'). */
export const personFlag = (record: unknown, flag: string): Reading => flagAt(record, '$', flag);

/** The documented consumer state IDENTIFIED, on the consumer's own record. */
export const identified = (consumer: unknown): Reading => flagAt(consumer, '$', 'IDENTIFIED', CONSUMER_STATE_KEY);

/** A flag of the related person with `legalId`, on that relative's own entry of the record. */
export function relativeFlag(record: unknown, legalId: string, flag: string): Reading {
  const readings = recordsOwning(record, legalId).map(({ item, path }) => flagAt(item, path, flag));
  const found = readings.map((each) => each.found).join('; ') || `no list entry carries the legal id ${legalId}`;
  return reading(
    readings.flatMap((each) => each.evidence),
    `the list entries carrying legal id ${legalId}: ${readings[0]?.looked ?? `${flag} and ${isFlag(flag)}`}`,
    found,
    found,
  );
}

const BY_LEGAL_ID = "the target's legal id on a record naming no gedi: the source gedi answers the target's record";

/**
 * The source's record shows it merged into the target: a merge field of its own names the target's gedi, or
 * it is the target's record; one naming no gedi (v3 dropped `person.gedi`) by its own legal ids.
 */
export function mergedInto(record: unknown, source: KnownPerson, target: KnownPerson): Reading {
  const fields = ownFields(record);
  const namesTarget = (value: unknown): boolean => value === target.gedi || ownsValue(value, target.gedi).holds;
  const mergeFields = fields.filter(({ key }) => MERGE_KEYS.has(normalKey(key)));
  const gedis = fields.filter(({ key }) => normalKey(key) === 'gedi');
  const hasGedi = (gedi: string) => gedis.some(({ value }) => value === gedi);
  const legalIds = gedis.length === 0 ? legalIdFields(record) : [];
  const hasSourceId = legalIds.some(({ value }) => value === source.person.legalId);
  const evidence = [
    ...mergeFields.filter(({ value }) => namesTarget(value)).map(fieldText),
    ...(hasGedi(target.gedi) && !hasGedi(source.gedi)
      ? gedis.map((gedi) => `${fieldText(gedi)} (the source gedi resolves to the merge target)`)
      : []),
    ...legalIds
      .filter(({ value }) => !hasSourceId && value === target.person.legalId)
      .map((legalId) => `${fieldText(legalId)} (${BY_LEGAL_ID})`),
  ];
  const [targetId, sourceId] = [show(target.person.legalId), show(source.person.legalId)];
  return reading(
    evidence,
    `the record's own merge fields (${[...MERGE_KEYS].join(', ')}) for ${target.gedi}, its own gedi, and, ` +
      `where it names no gedi, its own legal ids for the target's ${targetId} without the source's ${sourceId}`,
    firstFew([
      ...(mergeFields.length === 0 ? ['merged: not in the record'] : []),
      ...[...mergeFields, ...gedis, ...legalIds].map(fieldText),
    ]),
  );
}

/** The person's own record in a list (a subscription entry) carries `value` as one of its fields. */
export function ownsValue(record: unknown, value: string): Reading {
  return reading(
    ownFields(record)
      .filter((field) => field.value === value)
      .map(fieldText),
    `the record's own fields for ${show(value)}`,
    `${show(value)}: not among the record's own values`,
  );
}
