// Owns reading a PEP hit from a screening answer (operation 8) of undocumented layout, by facts.ts's rules of evidence.
import { firstFew, reading, type Reading } from './facts.js';
import {
  affirms,
  denies,
  fieldText,
  isRecord,
  listItems,
  normalKey,
  ownFields,
  parentsOf,
  pointerSegment,
  words,
  type Field,
  type JsonRecord,
  type Located,
} from './json.js';

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
const CATEGORY_KEY =
  /^(categor(y|ies)|types?|lists?|list(type|name|category)|sources?|datasets?|risktype|topics|tags|classification)$/;
/** The category fields that say what the match itself is; the others may name every list that was searched. */
const OWN_CATEGORY_KEY = /^(categor(y|ies)|types?|risktype|classification|list(type|category))$/;
/** Words of a type field that say what kind of entity matched, not on which list. */
const ENTITY_WORD = /^(person|individual|natural[ _-]?person|entity|company|organi[sz]ation|legal[ _-]?entity)$/i;
/** Fields of an entry of a match's category list (`lists: [{ "type": "PEP", "name": … }]`) that name the list. */
const LIST_ENTRY_NAME_KEY = new RegExp(`${CATEGORY_KEY.source}|^(name|code|title|label)$`);
/** An affirmative PEP flag on the match or the screened subject. */
const PEP_FLAG_KEY = /^(is)?(pep|politicallyexposed(person)?)$/;
const PEP_WORD = /^(pep|peps|politically[ _-]?exposed([ _-]?persons?)?|pep[ _-]?(list|class[ _-]?\d|tier[ _-]?\d)?)$/i;
/** Lists whose very name says their entries are PEP matches. */
const PEP_LIST_KEY = /^(peps|pephits|pepmatches|pepresults|politicallyexposedpersons)$/;
/** A PEP-specific outcome field, and the words by which it affirms a match. */
const PEP_STATUS_KEY = /^pep(status|result|match|screeningresult|outcome)$/;
const HIT_WORD = /^(hit|match(ed)?|positive|yes|true|found|confirmed|potential[ _-]?match)$/i;
/** A match entry's own yes or no: `matched: false` denies it (`active` or `confirmed` do not). */
const ENTRY_VERDICT_KEY = /^(is)?(hit|match(ed)?)$/;

/** An outcome that says there is no match, whatever other fields say. */
const NO_MATCH_WORD =
  /^(no[ _-]?(hits?|match(es)?|matches[ _-]?found|results?)|clear(ed)?|none|negative|not[ _-]?found|no[ _-]?risk)$/i;
const OUTCOME_KEY = /^(outcome|(screening|overall|match)?result|(screening|match)?status|decision|verdict)$/;
const COUNT_KEY = /^((hits?|match(es)?)count|(total|numberof)(hits|matches)|count|total)$/;

/** Where a flag is about the screened subject: the answer itself or its envelope, not a settings or provider object. */
const SUBJECT_ENVELOPES = new Set(['data', 'result', 'subject', 'person', 'screening', 'screeningresult']);

const says = (value: unknown, word: RegExp): boolean => words(value).some((each) => word.test(each.trim()));

/**
 * The entry's own field that says it is not a match: `matched: false`, `status: "NO_MATCH"`; or, for an entry that
 * stands for one list screened, a count of zero or an empty list of matches (`numberOfMatches: 0` beside its
 * `listType`).
 */
function denialOf({ item, path }: Located): string | undefined {
  const [key, value] =
    Object.entries(item).find(([name, inner]) => {
      const normal = normalKey(name);
      if (ENTRY_VERDICT_KEY.test(normal)) return denies(inner);
      if (COUNT_KEY.test(normal)) return inner === 0;
      if (MATCH_LIST_KEYS.has(normal)) return Array.isArray(inner) && inner.length === 0;
      return OUTCOME_KEY.test(normal) && says(inner, NO_MATCH_WORD);
    }) ?? [];
  return key === undefined ? undefined : fieldText({ path: `${path}.${key}`, value });
}

function pepEvidenceOf({ item, path }: Located): string[] {
  const fields = ownFields(item, path);
  // A match whose own category or type names another list (SANCTIONS) is that list's, whatever lists were searched.
  // The vendor's match names its own list as an object: `lists: [{ "type": "SANCTION", "name": … }]`.
  const listTypes = fields
    .filter(({ key, value }) => /^lists?$/.test(normalKey(key)) && Array.isArray(value))
    .flatMap(({ value }) => (value as unknown[]).flatMap((entry) => ownFields(entry)))
    .filter(({ key }) => OWN_CATEGORY_KEY.test(normalKey(key)));
  const own = [...fields.filter(({ key }) => OWN_CATEGORY_KEY.test(normalKey(key))), ...listTypes].flatMap(
    ({ value }) => words(value),
  );
  const another = own.some((word) => !PEP_WORD.test(word.trim()) && !ENTITY_WORD.test(word.trim()));
  const byOwnCategory = (name: string) => !another || OWN_CATEGORY_KEY.test(name);
  return fields.flatMap((field) => {
    const name = normalKey(field.key);
    if (PEP_FLAG_KEY.test(name) && affirms(field.value)) return [fieldText(field)];
    if (!CATEGORY_KEY.test(name) || !byOwnCategory(name)) return [];
    if (says(field.value, PEP_WORD)) return [fieldText(field)];
    if (!Array.isArray(field.value)) return [];
    // The lists a match was found on, as objects: the entry's own type or name says PEP.
    return field.value.flatMap((entry, index) =>
      ownFields(entry, `${field.path}[${index}]`)
        .filter(({ key, value }) => LIST_ENTRY_NAME_KEY.test(normalKey(key)) && says(value, PEP_WORD))
        .map(fieldText),
    );
  });
}

/** An answer that says there is no match, whatever else it holds: an outcome saying so, a count of zero. */
function answerDenial(body: unknown): Field | undefined {
  return ownFields(body).find(({ key, value }) => {
    const name = normalKey(key);
    if (OUTCOME_KEY.test(name) && (value === false || says(value, NO_MATCH_WORD))) return true;
    return (COUNT_KEY.test(name) || MATCH_LIST_KEYS.has(name)) && value === 0;
  });
}

/** The match entries that affirm a PEP hit: those whose own category or flag says PEP, unless they say no match. */
const affirmingEntries = (entries: Located[]): Located[] =>
  entries.filter((entry) => denialOf(entry) === undefined && pepEvidenceOf(entry).length > 0);

/** What a reading found among `entries` that is no PEP hit, in a phrase. */
function noneAmong(entries: Located[]): string {
  const denials = entries.flatMap((entry) => denialOf(entry) ?? []);
  const listed = `${entries.length} match entr(ies) (${firstFew(entries.map(({ path }) => path))})`;
  const denied = denials.length === 0 ? '' : ` that says it is a match (${firstFew(denials)})`;
  return entries.length === 0 ? 'no match entry' : `${listed} with no PEP category or flag${denied}`;
}

/**
 * A match entry whose category (type, list name) is PEP or that carries an affirmative PEP flag, or such a flag on
 * the screened subject; never an entry whose own field says it is not a match, nor in an answer whose outcome or hit
 * count says "no match".
 */
export function pepHit(body: unknown): Reading {
  const looked =
    `match entries under ${[...MATCH_LIST_KEYS].join('/')} (their category/categories/type/types/list/lists… ` +
    'fields and PEP flags, unless the entry itself says it is no match), and PEP flags on the subject';
  const denial = answerDenial(body);
  if (denial) return reading([], looked, `the answer says there is no match: ${fieldText(denial)}`);
  const entries = listItems(body, (key) => MATCH_LIST_KEYS.has(normalKey(key)));
  const fromSubject = ownFields(body).flatMap((field) => {
    const name = normalKey(field.key);
    if (!parentsOf(field.path).every((parent) => SUBJECT_ENVELOPES.has(parent))) return [];
    if ((PEP_FLAG_KEY.test(name) && affirms(field.value)) || (PEP_STATUS_KEY.test(name) && says(field.value, HIT_WORD)))
      return [fieldText(field)];
    if (PEP_LIST_KEY.test(name) && Array.isArray(field.value) && field.value.some(isRecord))
      return [`${field.path}[0] (an entry of a PEP match list)`];
    return [];
  });
  return reading(
    [...affirmingEntries(entries).flatMap(pepEvidenceOf), ...fromSubject],
    looked,
    `${noneAmong(entries)}, and no PEP flag on the subject`,
  );
}

/**
 * A PEP hit among the match entries of one list alone (`entries`, found at `path`: a learned location), by the words
 * above; never in an answer whose outcome or count says "no match".
 */
export function pepHitAmong(body: unknown, entries: unknown[], path: string, looked: string): Reading {
  const denial = answerDenial(body);
  if (denial) return reading([], looked, `the answer says there is no match: ${fieldText(denial)}`);
  const located = entries.flatMap((item, index) => (isRecord(item) ? [{ item, path: `${path}[${index}]` }] : []));
  return reading(affirmingEntries(located).flatMap(pepEvidenceOf), looked, noneAmong(located));
}

/**
 * Where, by the words above, the answer lists its PEP match: the JSON Pointer of the list holding the innermost entry
 * that affirms one, an entry on the way (one list screened of several) selected by its own PEP category
 * (`/screeningResult/matches/[listType="PEP"]/matches`); or why no location can be named.
 */
export function pepListLocation(body: unknown): string | { unseen: string } {
  const hits = affirmingEntries(listItems(body, (key) => MATCH_LIST_KEYS.has(normalKey(key))));
  const innermost = hits.find(({ path }) => !hits.some((other) => other.path.startsWith(`${path}.`)));
  if (!innermost) return { unseen: 'no match entry of the answer says PEP: a PEP flag on the subject is no list' };
  const tokens = [...innermost.path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)];
  let value: unknown = body;
  const segments: string[] = [];
  for (const [index, [, key, position]] of tokens.entries()) {
    if (key !== undefined) {
      value = (value as JsonRecord)[key];
      segments.push(pointerSegment(key));
      continue;
    }
    value = (value as unknown[])[Number(position)];
    if (index === tokens.length - 1) break;
    const [name, category] =
      Object.entries(value as JsonRecord).find(
        ([field, inner]) =>
          OWN_CATEGORY_KEY.test(normalKey(field)) && typeof inner === 'string' && says(inner, PEP_WORD),
      ) ?? [];
    if (name === undefined) return { unseen: `the PEP match lies at a position of ${segments.join('/')}, not by name` };
    segments.push(`[${name}=${JSON.stringify(category)}]`);
  }
  return `/${segments.join('/')}`;
}
