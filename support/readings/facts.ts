// Owns reading documented facts (PEP hit, IDENTIFIED, merged, deceased, deregistered, removed,
// subscribed, latest version, the persons a find answer holds and their legal ids) from answers
// whose layout is not documented. A fact holds only on
// affirmative evidence on the record it is about: a field that says so, on that record, never a
// word somewhere else in the answer ("No PEP match found", the lists that were checked, a relative's
// flag, another consumer's state). Each reading returns the evidence it found, as `path = value`,
// for the report, and, for a failure message, where it looked and what it found there instead.
import { isRecord, normalKey, type JsonRecord } from './lookup.js';

export interface Reading {
  holds: boolean;
  /** `$.hits[0].category = "PEP"`: what made it hold (empty when it does not). */
  evidence: string[];
  /** Where the reading looked, for a failure message. */
  looked: string;
  /** What it found where it looked, in one clause: `$.status.deregistered = false`, `removed: not in the record`. */
  found: string;
}

/**
 * What a wait checks of a record: a reading, whose timeout then says what the last record showed
 * of the documented value, or a plain yes or no.
 */
export type RecordCheck = (record: unknown) => Reading | boolean;

/** Whether a check's result holds. */
export const checkHolds = (result: Reading | boolean): boolean => (typeof result === 'boolean' ? result : result.holds);

/** What a wait's timeout reports of a check's result: a reading's finding; nothing for a yes or no. */
export const seenIn = (result: Reading | boolean): Reading | undefined =>
  typeof result === 'boolean' ? undefined : result;

const show = (value: unknown): string => JSON.stringify(value);

interface Field {
  path: string;
  key: string;
  value: unknown;
}

/** `$.status.deregistered = false`: a field as a failure message shows it. */
const fieldText = ({ path, value }: { path: string; value: unknown }): string => `${path} = ${show(value)}`;

/** The first three of `items`, and how many more: a finding stays one clause however long the list. */
function firstFew(items: string[]): string {
  return items.length > 3 ? `${items.slice(0, 3).join(', ')} and ${items.length - 3} more` : items.join(', ');
}

/**
 * The record's own fields: its keys and those of the objects nested in it (an envelope such as
 * `data` or `attributes`, a `status: { removed: true }`), never what sits in its lists, which hold
 * other records (relatives, matches, history) whose facts are theirs.
 */
function ownFields(record: unknown, path = '$'): Field[] {
  if (!isRecord(record)) return [];
  return Object.entries(record).flatMap(([key, value]) => [
    { path: `${path}.${key}`, key, value },
    ...ownFields(value, `${path}.${key}`),
  ]);
}

/**
 * The keys a field sits under, between the record and the field itself (`$.data.status.removed` → data, status),
 * normalized.
 */
const parentsOf = (path: string): string[] => path.split('.').slice(1, -1).map(normalKey);

/** Scalars among a record's own fields. */
function ownScalars(record: unknown): unknown[] {
  return ownFields(record)
    .map((field) => field.value)
    .filter((value) => !isRecord(value) && !Array.isArray(value));
}

/** A record of an answer and where it sits (`$.results[1]`). */
export interface Located {
  item: JsonRecord;
  path: string;
}

/** Every object that is an element of a list, at any depth, with its path. */
function listItems(body: unknown, path = '$'): Located[] {
  if (Array.isArray(body)) {
    return body.flatMap((element, index) => [
      ...(isRecord(element) ? [{ item: element, path: `${path}[${index}]` }] : []),
      ...listItems(element, `${path}[${index}]`),
    ]);
  }
  if (!isRecord(body)) return [];
  return Object.entries(body).flatMap(([key, value]) => listItems(value, `${path}.${key}`));
}

/**
 * The list items that carry `value` as one of their own fields: the consumer with that consumerId, the relative with
 * that legal id.
 */
export function recordsOwning(body: unknown, value: string): Located[] {
  return listItems(body).filter(({ item }) => ownScalars(item).includes(value));
}

// ---------------------------------------------------------------------------------------------
// The person records of an answer: what a find answer or a list holds (operations 4, 6, 7), whatever its layout.

/**
 * Keys under which a person carries its legal id (as a value, an object such as `{ identityNumber }`, or a list of
 * earlier ones).
 */
const LEGAL_ID_KEY = new RegExp(
  `^(${[
    'legalids?',
    'deprecatedlegalids',
    'identitynumber',
    'socialsecuritynumber',
    'ssn',
    'nationalid',
    'nationalidentitynumber',
    'personalidentitynumber',
    'personalnumber',
    'identifiers',
  ].join('|')})$`,
);
const isLegalIdKey = (key: string): boolean => LEGAL_ID_KEY.test(normalKey(key));
/** Objects that echo what was asked (`query: { legalId }`): never a person of the answer. */
const ECHO_KEYS = new Set([
  ...['query', 'request', 'search', 'searchcriteria', 'criteria'],
  ...['filter', 'filters', 'params', 'parameters'],
]);
/** An echo of the request, by its normalized key; `…input` too: the vendor's `companyInput` echoes its request. */
const isEchoKey = (name: string): boolean => ECHO_KEYS.has(name) || name.endsWith('input');

/** An object is a person record when one of its own fields, outside an echo of the request, is a gedi or a legal id. */
function isPersonRecord(item: JsonRecord): boolean {
  return ownFields(item).some(
    ({ path, key }) => (normalKey(key) === 'gedi' || isLegalIdKey(key)) && !parentsOf(path).some(isEchoKey),
  );
}

/** The answer without the parts that echo the request: what is left is what the target says of its own. */
export function withoutEchoes(answer: unknown): unknown {
  if (Array.isArray(answer)) return answer.map(withoutEchoes);
  if (!isRecord(answer)) return answer;
  const kept = Object.entries(answer).filter(([key]) => !isEchoKey(normalKey(key)));
  return Object.fromEntries(kept.map(([key, value]) => [key, withoutEchoes(value)]));
}

/**
 * The person records of an answer, outermost first: the answer itself when it is one person (in an
 * envelope or not), otherwise the person records of its lists and envelopes (`results`, `data`,
 * `_embedded.persons`, `matches[].person`). What lies inside a person record is that person's own
 * (relatives, earlier legal ids, merge history), never another record of the answer.
 */
export function personRecords(answer: unknown, path = '$'): Located[] {
  if (Array.isArray(answer)) return answer.flatMap((element, index) => personRecords(element, `${path}[${index}]`));
  if (!isRecord(answer)) return [];
  if (isPersonRecord(answer)) return [{ item: answer, path }];
  return Object.entries(answer).flatMap(([key, value]) =>
    isEchoKey(normalKey(key)) ? [] : personRecords(value, `${path}.${key}`),
  );
}

/**
 * The record's own legal ids: the scalars under a legal-id key of its own fields (`legalId`,
 * `legalId.identityNumber`, `attributes.legalId`) and in its own lists of legal ids
 * (`deprecatedLegalIds`, `legalId.history`, `identifiers`); never a relative's entry, a note,
 * what a merge field names, or the request echoed beside the record's own fields.
 */
function legalIdFields(value: unknown, path: string, underLegalIdKey: boolean): { path: string; value: unknown }[] {
  if (Array.isArray(value))
    return underLegalIdKey ? value.flatMap((element, index) => legalIdFields(element, `${path}[${index}]`, true)) : [];
  if (!isRecord(value)) return underLegalIdKey ? [{ path, value }] : [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const name = normalKey(key);
    if (MERGE_KEYS.has(name) || isEchoKey(name)) return [];
    return legalIdFields(inner, `${path}.${key}`, underLegalIdKey || isLegalIdKey(key));
  });
}

/** The record's own gedi: a `gedi` of its own fields, not one a merge field names or an echo of the request carries. */
function personGedis(record: unknown): Field[] {
  const elsewhere = (parent: string) => MERGE_KEYS.has(parent) || isEchoKey(parent);
  return ownFields(record).filter(({ path, key }) => normalKey(key) === 'gedi' && !parentsOf(path).some(elsewhere));
}

/** The person record carries `legalId` as a legal id of its own. */
function carriesLegalId(record: unknown, legalId: string, path = '$'): Reading {
  const own = legalIdFields(record, path, false);
  const evidence = own.filter((field) => field.value === legalId).map(fieldText);
  return {
    holds: evidence.length > 0,
    evidence,
    looked:
      "the record's own legal-id fields (legalId, identityNumber, socialSecurityNumber, … and its lists of earlier " +
      `legal ids) for ${show(legalId)}`,
    found: evidence.length > 0 ? evidence.join(', ') : firstFew(own.map(fieldText)) || 'no legal id of its own',
  };
}

/** Where the records are, for `looked`. */
const paths = (records: Located[]): string => records.map(({ path }) => path).join(', ') || 'none';

const EXCERPT_CHARS = 400;
/** A record as evidence: where it is, whose it is (its own legal ids and gedi), then the record itself, cut short. */
function shown({ item, path }: Located): string {
  const own = [...legalIdFields(item, '$', false), ...personGedis(item)]
    .filter((field) => typeof field.value === 'string')
    .map((field) => `${field.path} = ${show(field.value)}`);
  const text = show(item);
  return (
    `${path} (${own.join(', ') || 'no legal id or gedi of its own'}): ` +
    `${text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text}`
  );
}

/** Some person record of the answer carries `legalId` as its own: the matching person is there. */
export function personWithLegalId(answer: unknown, legalId: string): Reading {
  const records = personRecords(answer);
  const readings = records.map(({ item, path }) => carriesLegalId(item, legalId, path));
  const evidence = readings.flatMap((reading) => reading.evidence);
  return {
    holds: evidence.length > 0,
    evidence,
    looked:
      `the answer's ${records.length} person record(s) (${paths(records)}), for ${show(legalId)} among their own ` +
      'legal ids',
    found:
      evidence.length > 0
        ? evidence.join(', ')
        : records.length === 0
          ? 'no person record in the answer'
          : `their own legal ids: ${firstFew(readings.map((reading) => reading.found))}`,
  };
}

/**
 * The answer (a list, or its pages) holds a record of its own for the person with this gedi or legal
 * id: a record whose own gedi or own legal id it is. A relative of another record, carrying that
 * legal id inside the other record, is not one.
 */
export function listsPerson(answer: unknown, person: { gedi: string; legalId: string }): Reading {
  const records = personRecords(answer);
  const own = records.filter(
    ({ item, path }) =>
      carriesLegalId(item, person.legalId, path).holds || personGedis(item).some(({ value }) => value === person.gedi),
  );
  return {
    holds: own.length > 0,
    evidence: own.map(shown),
    looked:
      `the ${records.length} record(s) of the answer, for gedi ${show(person.gedi)} or legal id ` +
      `${show(person.legalId)} as their own (not a relative's)`,
    found:
      own.length > 0
        ? `a record of its own: ${paths(own)}`
        : records.length === 0
          ? 'no person record in the answer'
          : `none of the ${records.length} person record(s) is its own`,
  };
}

/**
 * Person records of a find answer that do not carry the legal id asked for: each one is evidence,
 * shown as its path and the record itself. Holds on none for an answer of matching persons only,
 * and for an answer with no person at all (204, or an empty list).
 */
export function personsWithoutLegalId(answer: unknown, legalId: string): Reading {
  const records = personRecords(answer);
  const strangers = records.filter(({ item, path }) => !carriesLegalId(item, legalId, path).holds);
  return {
    holds: strangers.length > 0,
    evidence: strangers.map(shown),
    looked:
      `the answer's ${records.length} person record(s) (${paths(records)}), each for ${show(legalId)} among its ` +
      "own legal ids; relatives and other lists inside a record are that person's own",
    found:
      strangers.length > 0
        ? `${strangers.length} record(s) without it: ${firstFew(strangers.map(({ path }) => path))}`
        : records.length === 0
          ? 'no person record in the answer'
          : `each of the ${records.length} person record(s) carries it`,
  };
}

const AFFIRMATIVE = new Set([true, 'true', 'TRUE', 'True', 'yes', 'YES', 'Y']);

/** Fields that hold a record's state as words: `status: "REMOVED"`, `states: ["DECEASED"]`. */
const STATE_KEYS = new Set([
  'status',
  'state',
  'statuses',
  'states',
  'flags',
  'personstatus',
  'recordstatus',
  'lifecyclestatus',
  'registrationstatus',
  'civilstatus',
]);

function words(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/**
 * Whether the record itself is marked with `flag`: a field named like the flag (or is<Flag>) that
 * is affirmatively true, or a state field whose word is exactly the flag. Where it is not, it found
 * the fields named like the flag with their values, and the state fields' words.
 */
export function flagOf(record: unknown, flag: string, stateKeys: ReadonlySet<string> = STATE_KEYS): Reading {
  return flagAt(record, '$', flag, stateKeys);
}

/** `flagOf` for a record at `path` of an answer, its fields named by their path in the answer. */
function flagAt(record: unknown, path: string, flag: string, stateKeys: ReadonlySet<string>): Reading {
  const wanted = normalKey(flag);
  const fields = ownFields(record, path);
  const named = fields.filter(({ key }) => [wanted, `is${wanted}`].includes(normalKey(key)));
  const states = fields.filter(({ key, value }) => stateKeys.has(normalKey(key)) && words(value).length > 0);
  const evidence = [
    ...named.filter(({ value }) => AFFIRMATIVE.has(value as string | boolean)),
    ...states.filter(({ value }) => words(value).some((word) => normalKey(word) === wanted)),
  ].map(fieldText);
  const seen = [...named, ...states].map(fieldText);
  const shownStates = [...stateKeys].slice(0, 4).join(', ');
  return {
    holds: evidence.length > 0,
    evidence,
    looked:
      `${flag} and ${isFlag(flag)} (true), and the state fields (${shownStates}, …) for ` + `"${flag.toUpperCase()}"`,
    found:
      evidence.length > 0
        ? evidence.join(', ')
        : seen.join(', ') || `${flag}: not in ${path === '$' ? 'the record' : path}`,
  };
}

/** `isDeregistered`: the other name a flag goes by. */
const isFlag = (flag: string): string => `is${flag[0]!.toUpperCase()}${flag.slice(1)}`;

/** A flag of the person a record is about (its own fields, not its relatives'). */
export const personFlag = flagOf;

/** A flag of the related person with `legalId`, on that relative's own entry of the record. */
export function relativeFlag(record: unknown, legalId: string, flag: string): Reading {
  const readings = recordsOwning(record, legalId).map(({ item, path }) => flagAt(item, path, flag, STATE_KEYS));
  const holding = readings.filter((reading) => reading.holds);
  return {
    holds: holding.length > 0,
    evidence: holding.flatMap((reading) => reading.evidence),
    looked: `the list entries carrying legal id ${legalId}: ${readings[0]?.looked ?? `${flag} and ${isFlag(flag)}`}`,
    found:
      readings.length === 0
        ? `no list entry carries the legal id ${legalId}`
        : readings.map((reading) => reading.found).join('; '),
  };
}

const CONSUMER_STATE_KEYS = new Set([
  ...STATE_KEYS,
  'consumerstate',
  'consumerstatus',
  'identificationstate',
  'identificationstatus',
  'matchstatus',
  'matchstate',
]);

/** The documented consumer state IDENTIFIED, on the consumer's own record. */
export function identified(consumer: unknown): Reading {
  return flagOf(consumer, 'IDENTIFIED', CONSUMER_STATE_KEYS);
}

/** Keys that name where a person was merged to. */
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

/** A person the suite stored: the gedi its PUT answered and the legal id it sent. */
export interface KnownPerson {
  gedi: string;
  person: { legalId: string };
}

/**
 * The record fetched for the source's gedi shows it merged into the target: a merge field of its
 * own names the target's gedi (`merged: { gedi }`, `mergedInto`), or the record is the target's own
 * (the source gedi now resolves to the person it was merged into). A record that names no gedi
 * (v3 dropped `person.gedi`) is the target's when its own legal ids hold the target's and not the
 * source's; a relative's legal id is the relative's.
 */
export function mergedInto(record: unknown, source: KnownPerson, target: KnownPerson): Reading {
  const fields = ownFields(record);
  const namesTarget = (value: unknown): boolean => value === target.gedi || ownScalars(value).includes(target.gedi);
  const underMergeKey = fields.flatMap(({ path, key, value }) =>
    MERGE_KEYS.has(normalKey(key)) && namesTarget(value) ? [`${path} = ${show(value)}`] : [],
  );
  const ownGedis = fields.filter(({ key }) => normalKey(key) === 'gedi').map(({ path, value }) => ({ path, value }));
  const hasGedi = (gedi: string) => ownGedis.some(({ value }) => value === gedi);
  const resolves = hasGedi(target.gedi) && !hasGedi(source.gedi);
  const evidence = [
    ...underMergeKey,
    ...(resolves
      ? ownGedis.map(({ path, value }) => `${path} = ${show(value)} (the source gedi resolves to the merge target)`)
      : []),
    ...(ownGedis.length === 0 ? targetsLegalIds(record, source, target) : []),
  ];
  const [targetId, sourceId] = [show(target.person.legalId), show(source.person.legalId)];
  const mergeFields = fields.filter(({ key }) => MERGE_KEYS.has(normalKey(key)));
  const seen = [...mergeFields, ...ownGedis, ...(ownGedis.length === 0 ? legalIdFields(record, '$', false) : [])];
  return {
    holds: evidence.length > 0,
    evidence,
    looked:
      `the record's own merge fields (${[...MERGE_KEYS].join(', ')}) for ${target.gedi}, its own gedi, and, ` +
      `where it names no gedi, its own legal ids for the target's ${targetId} without the source's ${sourceId}`,
    found:
      evidence.length > 0
        ? evidence.join(', ')
        : firstFew([...(mergeFields.length === 0 ? ['merged: not in the record'] : []), ...seen.map(fieldText)]),
  };
}

const BY_LEGAL_ID = "the target's legal id on a record naming no gedi: the source gedi answers the target's record";

/** The target's legal id among the record's own, as evidence, unless the source's is there too. */
function targetsLegalIds(record: unknown, source: KnownPerson, target: KnownPerson): string[] {
  const own = legalIdFields(record, '$', false);
  if (own.some(({ value }) => value === source.person.legalId)) return [];
  const matching = own.filter(({ value }) => value === target.person.legalId);
  return matching.map(({ path, value }) => `${path} = ${show(value)} (${BY_LEGAL_ID})`);
}

/** The person's own record in a list (a subscription entry) carries `value` as one of its fields. */
export function ownsValue(record: unknown, value: string): Reading {
  const evidence = ownFields(record)
    .filter((field) => field.value === value)
    .map(({ path }) => `${path} = ${show(value)}`);
  return {
    holds: evidence.length > 0,
    evidence,
    looked: `the record's own fields for ${show(value)}`,
    found: evidence.length > 0 ? evidence.join(', ') : `${show(value)}: not among the record's own values`,
  };
}

// ---------------------------------------------------------------------------------------------
// Screening

/** Lists whose entries are matches (hits) of a screening. */
const MATCH_LIST_KEYS = new Set([
  'hits',
  'matches',
  'results',
  'candidates',
  'alerts',
  'entities',
  'findings',
  'matchedentities',
  'screeningresults',
  'potentialmatches',
]);
/** Fields of a match that say which kind of list it was found on. */
const CATEGORY_KEYS = new Set([
  'category',
  'categories',
  'type',
  'types',
  'list',
  'lists',
  'listtype',
  'listname',
  'listcategory',
  'source',
  'sources',
  'dataset',
  'datasets',
  'risktype',
  'topics',
  'tags',
  'classification',
]);
/** Fields that are an affirmative PEP flag on the match or the screened subject. */
const PEP_FLAG_KEYS = new Set([
  'pep',
  'ispep',
  'politicallyexposed',
  'ispoliticallyexposed',
  'politicallyexposedperson',
  'ispoliticallyexposedperson',
]);
const PEP_WORD = /^(pep|peps|politically[ _-]?exposed([ _-]?persons?)?|pep[ _-]?(list|class[ _-]?\d|tier[ _-]?\d)?)$/i;
/** Lists whose very name says their entries are PEP matches. */
const PEP_LIST_KEYS = new Set(['peps', 'pephits', 'pepmatches', 'pepresults', 'politicallyexposedpersons']);
/** A PEP-specific outcome field, and the words by which it affirms a match. */
const PEP_STATUS_KEYS = new Set(['pepstatus', 'pepresult', 'pepmatch', 'pepscreeningresult', 'pepoutcome']);
const HIT_WORD = /^(hit|match(ed)?|positive|yes|true|found|confirmed|potential[ _-]?match)$/i;

/** An outcome that says there is no match, whatever other fields say. */
const NO_MATCH_WORD =
  /^(no[ _-]?(hits?|match(es)?|matches[ _-]?found|results?)|clear(ed)?|none|negative|not[ _-]?found|no[ _-]?risk)$/i;
const OUTCOME_KEYS = new Set([
  'outcome',
  'result',
  'status',
  'screeningresult',
  'screeningstatus',
  'matchstatus',
  'decision',
  'verdict',
  'overallresult',
]);
const COUNT_KEYS = new Set([
  'hitcount',
  'matchcount',
  'totalhits',
  'totalmatches',
  'numberofhits',
  'numberofmatches',
  'hitscount',
  'matchescount',
  'count',
  'total',
]);

function saysNoMatch(body: unknown): string | undefined {
  for (const { path, key, value } of ownFields(body)) {
    const name = normalKey(key);
    if (OUTCOME_KEYS.has(name) && words(value).some((word) => NO_MATCH_WORD.test(word.trim())))
      return `${path} = ${show(value)}`;
    if (OUTCOME_KEYS.has(name) && value === false) return `${path} = false`;
    if ((COUNT_KEYS.has(name) || MATCH_LIST_KEYS.has(name)) && value === 0) return `${path} = 0`;
  }
  return undefined;
}

function matchEntries(body: unknown, path = '$'): Located[] {
  if (Array.isArray(body)) return body.flatMap((element, index) => matchEntries(element, `${path}[${index}]`));
  if (!isRecord(body)) return [];
  return Object.entries(body).flatMap(([key, value]) => {
    const here = `${path}.${key}`;
    const entries =
      MATCH_LIST_KEYS.has(normalKey(key)) && Array.isArray(value)
        ? value.flatMap((element, index) => (isRecord(element) ? [{ item: element, path: `${here}[${index}]` }] : []))
        : [];
    return [...entries, ...matchEntries(value, here)];
  });
}

/** Where a flag is about the screened subject: the answer itself or its envelope, not a settings or provider object. */
const SUBJECT_ENVELOPES = new Set(['data', 'result', 'subject', 'person', 'screening', 'screeningresult']);

function onTheSubject(path: string): boolean {
  return parentsOf(path).every((parent) => SUBJECT_ENVELOPES.has(parent));
}

/** Fields of an entry of a match's category list (`lists: [{ "type": "PEP", "name": … }]`) that name the list. */
const LIST_ENTRY_NAME_KEYS = new Set([...CATEGORY_KEYS, 'name', 'code', 'title', 'label']);

function pepEvidenceOf(item: JsonRecord, path: string): string[] {
  return ownFields(item, path).flatMap(({ path: at, key, value }) => {
    const name = normalKey(key);
    if (PEP_FLAG_KEYS.has(name) && AFFIRMATIVE.has(value as string | boolean)) return [`${at} = ${show(value)}`];
    if (!CATEGORY_KEYS.has(name)) return [];
    if (words(value).some((word) => PEP_WORD.test(word.trim()))) return [`${at} = ${show(value)}`];
    // The lists a match was found on, as objects: the entry's own type or name says PEP.
    if (!Array.isArray(value)) return [];
    return value.flatMap((entry, index) =>
      ownFields(entry, `${at}[${index}]`).flatMap(({ path: field, key: entryKey, value: named }) =>
        LIST_ENTRY_NAME_KEYS.has(normalKey(entryKey)) && words(named).some((word) => PEP_WORD.test(word.trim()))
          ? [`${field} = ${show(named)}`]
          : [],
      ),
    );
  });
}

/**
 * A politically exposed person among the matches of a screening: a match entry whose category
 * (type, list name) is PEP or that carries an affirmative PEP flag, or an affirmative PEP flag on
 * the screened subject itself. An answer whose outcome or hit count says "no match" is never a hit.
 */
export function pepHit(body: unknown): Reading {
  const looked =
    `match entries under ${[...MATCH_LIST_KEYS].join('/')} (their ${[...CATEGORY_KEYS].slice(0, 6).join('/')}… ` +
    'fields and PEP flags), and PEP flags on the subject';
  const denial = saysNoMatch(body);
  if (denial !== undefined)
    return { holds: false, evidence: [], looked, found: `the answer says there is no match: ${denial}` };
  const entries = matchEntries(body);
  const fromMatches = entries.flatMap(({ item, path }) => pepEvidenceOf(item, path));
  const fromSubject = ownFields(body).flatMap(({ path, key, value }) => {
    if (!onTheSubject(path)) return [];
    const name = normalKey(key);
    if (PEP_FLAG_KEYS.has(name) && AFFIRMATIVE.has(value as string | boolean)) return [`${path} = ${show(value)}`];
    if (PEP_STATUS_KEYS.has(name) && words(value).some((word) => HIT_WORD.test(word.trim())))
      return [`${path} = ${show(value)}`];
    if (PEP_LIST_KEYS.has(name) && Array.isArray(value) && value.some(isRecord))
      return [`${path}[0] (an entry of a PEP match list)`];
    return [];
  });
  const evidence = [...fromMatches, ...fromSubject];
  const matches =
    entries.length === 0
      ? 'no match entry'
      : `${entries.length} match entr(ies) (${firstFew(entries.map(({ path }) => path))}) with no PEP category or flag`;
  return {
    holds: evidence.length > 0,
    evidence,
    looked,
    found: evidence.length > 0 ? evidence.join(', ') : `${matches}, and no PEP flag on the subject`,
  };
}
