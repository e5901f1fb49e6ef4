// Owns learning where a fact lives (docs/DESIGN.md, "Learning"): by difference between the subject's answer and its
// control's, written the same way without the When. A location qualifies only as the server's own: one where the
// client's value shows at the path it was sent, or a string it sent shows under another key, is `as-sent`; identities,
// timestamps, versions and counters never qualify. It knows nothing of HTTP: it reads answers a run already has.
import { isRecord, pointerSegment } from '../readings/json.js';
import { personRecords, personWithLegalId } from '../readings/facts.js';
import { bound, jsonType, resolve, segmentsOf, type Bindings } from './locations.js';
import { FACT_NAMES, type FactName, type LayoutFile, type LearnedFact, type Shape } from './layout-file.js';

/** One answer of a learning pair: the record, the words its locations bind, and the body its Given wrote. */
export interface Observed {
  record: unknown;
  bindings: Bindings;
  /** What the Givens sent for this person or consumer: its own generated data, the same in kind for both. */
  given: object;
  /** Its own identity (gedi, consumer id): a value that differs between any two persons, never a fact. */
  identity: string[];
}

/** What a spec saw of one fact: the body its When sent, and the subject's and the control's settled answers. */
export interface Observation {
  fact: FactName;
  operation: string;
  /** The When's body; none where the When sent nothing the record could show back (an upload). */
  sent?: object;
  subject: Observed;
  control: Observed;
}

/**
 * A fact the suite's own vocabulary found (where a list names its next page), or an identity found by its value (where
 * a list entry carries its consumer id): proposed as seen, `by: vocabulary` or `by: value`; or,
 * `unseen`, why a read could not show it (the list ended on its first page), listed as unlearned unless another saw it.
 */
export type Seen = { fact: FactName; operation: string } & (
  | {
      location: string;
      predicate: string;
      why: string;
      by?: 'value' | 'difference';
      shape?: Shape;
      pageKeys?: string[];
      seen?: LearnedFact['seen'];
      candidates?: string[];
    }
  | { unseen: string }
);

/** One line of a learning run's journal. */
export type JournalEntry = Observation | Seen;

/** `own`: the server's; `same-path`: the client's value at the path it was sent; `sent-value`: its string elsewhere. */
type Kind = 'own' | 'same-path' | 'sent-value';

export interface Candidate {
  location: string;
  predicate: string;
  kind: Kind;
  /** The control has nothing there: a location whose absence, under an intact shape, reads as no. */
  absentInControl: boolean;
  seen: { control?: unknown; subject: unknown };
}

/** What learning proposes for one fact: the chosen location, every candidate, and why, in a sentence. */
export interface Learned {
  fact: FactName;
  chosen?: LearnedFact;
  candidates: Candidate[];
  why: string;
}

const OWN_PLACEHOLDER = '<its own value>';
/** Keys of the server's bookkeeping: what changes on any write, never a documented fact. */
const BOOKKEEPING_KEY = /(version|revision|etag|updated|modified|created|timestamp|time|date|at)$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}/;
/** A word a server chooses for a state (`REMOVED`, `active`): letters only, so never an identity or generated id. */
const WORD = /^[A-Za-z][A-Za-z_ -]{0,39}$/;
/** The bindings a server's own value may name: the identities of the persons a merge is about. */
const IDENTITY_WORDS = ['target.gedi', 'target.legalId'];
/** Facts whose yes must name someone: a merge is "into whom", not a word. */
export const NAMES_TARGET: ReadonlySet<FactName> = new Set(['person.merged']);
/** A predicate that names a merge's target by its identity (`= target.gedi`, `= target.legalId`). */
export const namesTarget = (predicate: string): boolean => /= target\./.test(predicate);
/** The selector binding a list entry is chosen by: the relative the fact is about. */
const SELECTOR_WORD = 'relative';

const depthOf = (location: string) => (location === '' ? 0 : segmentsOf(location).length);

/** The scalar leaves of `value` by pointer; a list entry holding the relative is named by a selector, not an index. */
function leaves(value: unknown, bindings: Bindings, pointer = '', out = new Map<string, unknown>()) {
  if (Array.isArray(value)) {
    value.forEach((entry, index) => leaves(entry, bindings, `${pointer}/${selectorOf(entry, bindings) ?? index}`, out));
  } else if (isRecord(value)) {
    for (const [key, inner] of Object.entries(value)) leaves(inner, bindings, `${pointer}/${pointerSegment(key)}`, out);
  } else out.set(pointer, value);
  return out;
}

/** `[legalId/socialSecurityNumber=relative]` for the entry whose leaf there is the relative's legal id. */
function selectorOf(entry: unknown, bindings: Bindings): string | undefined {
  const wanted = bindings[SELECTOR_WORD];
  if (typeof wanted !== 'string' || !isRecord(entry)) return undefined;
  for (const [pointer, value] of leaves(entry, {}))
    if (value === wanted) return `[${pointer.slice(1)}=${SELECTOR_WORD}]`;
  return undefined;
}

/**
 * The answer's leaves (`all`, already taken) with its own generated data and identity written as one placeholder, so
 * two persons compare.
 */
function comparable(
  { record, bindings, given, identity }: Observed,
  all = leaves(record, bindings),
): Map<string, unknown> {
  const own = new Set<unknown>([...identity, ...[...leaves(given, {}).values()].filter((v) => typeof v === 'string')]);
  const named = new Set(IDENTITY_WORDS.map((word) => bound(word, bindings)));
  const out = new Map<string, unknown>();
  for (const [pointer, value] of all) out.set(pointer, own.has(value) && !named.has(value) ? OWN_PLACEHOLDER : value);
  return out;
}

/**
 * Where the answer holds a copy of the When's body: each prefix under which most of the sent leaves show with their
 * sent values (the record itself, its `attributes`, a `lastWrite` beside it).
 */
function copyRoots(answer: Map<string, unknown>, sent: Map<string, unknown>): string[] {
  const counts = new Map<string, number>();
  for (const [path, value] of sent)
    for (const [pointer, shown] of answer)
      if (shown === value && pointer.endsWith(path)) {
        const root = pointer.slice(0, pointer.length - path.length);
        counts.set(root, (counts.get(root) ?? 0) + 1);
      }
  return [...counts].filter(([, count]) => count * 2 >= sent.size).map(([root]) => root);
}

/** `sent.deregisteredReason`, or `sentRelative.dateOfDeath` under the relative's entry. */
function sentWord(path: string): string {
  const segments = segmentsOf(path);
  const selector = segments.findIndex((segment) => segment.startsWith('['));
  return selector < 0 ? `sent.${segments.join('.')}` : `sentRelative.${segments.slice(selector + 1).join('.')}`;
}

/** Every location where the subject's answer differs from the control's, with what it would read and of what kind. */
export function candidatesOf(observation: Observation): Candidate[] {
  const raw = leaves(observation.subject.record, observation.subject.bindings);
  const subject = comparable(observation.subject, raw);
  const control = comparable(observation.control);
  const sent = observation.sent ? leaves(observation.sent, observation.subject.bindings) : new Map<string, unknown>();
  const roots = copyRoots(raw, sent);
  const sentStrings = new Set([...sent.values()].filter((value) => typeof value === 'string'));
  const candidates: Candidate[] = [];
  for (const [location, value] of subject) {
    const before = control.get(location);
    if (value === OWN_PLACEHOLDER || Object.is(before, value) || value === null) continue;
    const seen = { ...(control.has(location) ? { control: before } : {}), subject: value };
    const base = { location, absentInControl: !control.has(location), seen };
    const sentPath = roots
      .filter((root) => location.startsWith(root))
      .map((root) => location.slice(root.length))
      .find((path) => sent.has(path));
    const identity = IDENTITY_WORDS.find((word) => bound(word, observation.subject.bindings) === value);
    if (sentPath !== undefined) {
      const named = identity ?? (typeof value === 'string' ? sentWord(sentPath) : JSON.stringify(value));
      candidates.push({ ...base, kind: 'same-path', predicate: `= ${named}` });
      continue;
    }
    if (typeof value === 'string' && sentStrings.has(value)) {
      candidates.push({ ...base, kind: 'sent-value', predicate: `= ${identity ?? JSON.stringify(value)}` });
      continue;
    }
    const key = location.split('/').at(-1) ?? '';
    const bookkeeping = typeof value === 'number' || BOOKKEEPING_KEY.test(key) || TIMESTAMP.test(String(value));
    if (identity) candidates.push({ ...base, kind: 'own', predicate: `= ${identity}` });
    else if (!bookkeeping && (typeof value === 'boolean' || (typeof value === 'string' && WORD.test(value))))
      candidates.push({ ...base, kind: 'own', predicate: `= ${JSON.stringify(value)}` });
  }
  return candidates;
}

/** The JSON types along the location where both answers have them: what a changed layout no longer has. */
function shapeOf(observation: Observation, location: string): Shape {
  const shape: Shape = {};
  const subject = resolve(observation.subject.record, location, observation.subject.bindings).along;
  const control = resolve(observation.control.record, location, observation.control.bindings).along;
  for (const [i, step] of subject.entries()) {
    if (!step.present || !control[i]?.present) break;
    shape[step.pointer] = jsonType(step.value);
  }
  return shape;
}

const KIND_RANK: Record<Kind, number> = { own: 0, 'sent-value': 1, 'same-path': 2 };
const valueRank = (value: unknown) => (typeof value === 'boolean' ? 0 : 1);

/**
 * The location proposed for one fact: the server's own before the client's value shown back, then one only this
 * fact's transition changes so (`shared`: the locations and values the other facts of the operation showed too), then
 * a boolean, then the shallowest.
 */
export function learnFact(observation: Observation, shared: ReadonlySet<string> = new Set()): Learned {
  const { fact } = observation;
  const all = candidatesOf(observation);
  const fitting = NAMES_TARGET.has(fact) ? all.filter(({ predicate }) => namesTarget(predicate)) : all;
  const ranked = [...fitting].sort(
    (a, b) =>
      KIND_RANK[a.kind] - KIND_RANK[b.kind] ||
      Number(shared.has(`${a.location} ${a.predicate}`)) - Number(shared.has(`${b.location} ${b.predicate}`)) ||
      valueRank(a.seen.subject) - valueRank(b.seen.subject) ||
      depthOf(a.location) - depthOf(b.location) ||
      a.location.localeCompare(b.location),
  );
  const best = ranked[0];
  if (!best) {
    const why =
      all.length === 0
        ? 'the subject answered as its control did: nothing this transition changed shows'
        : `no candidate names ${fact === 'person.merged' ? 'the target' : 'the fact'} (${all.length} differences)`;
    return { fact, candidates: all, why };
  }
  const chosen: LearnedFact = {
    operation: observation.operation,
    location: best.location,
    predicate: best.predicate,
    ...(best.absentInControl ? { absentMeansNo: true } : {}),
    shape: shapeOf(observation, best.location),
    by: best.kind === 'own' ? 'difference' : 'as-sent',
    seen: best.seen,
  };
  const where = best.kind === 'same-path' ? 'at the path it was sent' : 'a string it sent, under another key';
  const why =
    best.kind === 'own'
      ? `the server's own: it differs from the control's, and is not what the client sent`
      : `only the client's own value shown back (${where}): this target cannot show that it acted`;
  return { fact, chosen, candidates: ranked, why };
}

/**
 * Where two answers that must differ (the two company test cases' outcomes) differ, best first: a string or boolean,
 * never a number (a count) or bookkeeping, that stays the same between `first` and `again` (a repeat of the first
 * case); then the shallowest.
 */
export function differences(first: unknown, second: unknown, again: unknown): string[] {
  const [a, b, c] = [first, second, again].map((answer) => leaves(answer, {}));
  const pointers = [...new Set([...a!.keys(), ...b!.keys()])];
  const qualifies = (pointer: string) => {
    const value = a!.get(pointer) ?? b!.get(pointer);
    const key = pointer.split('/').at(-1) ?? '';
    return (typeof value === 'string' || typeof value === 'boolean') && !BOOKKEEPING_KEY.test(key);
  };
  return pointers
    .filter((pointer) => !Object.is(a!.get(pointer), b!.get(pointer)) && Object.is(a!.get(pointer), c!.get(pointer)))
    .filter(qualifies)
    .sort((x, y) => depthOf(x) - depthOf(y) || x.localeCompare(y));
}

/** `$.results[0]` → `/results`, `$` → `""`: the container a person record was found in, as a pointer. */
function containerOf(path: string): string {
  const inner = path.replace(/\[\d+\]$/, '');
  return inner === '$'
    ? ''
    : inner
        .slice(1)
        .replace(/\[(\d+)\]/g, '.$1')
        .split('.')
        .map(pointerSegment)
        .join('/');
}

/** Where each answer holds a person record with the legal id it asked for, by container. */
function holding({ record, bindings }: Observed): Map<string, number> {
  const containers = new Map<string, number>();
  for (const { item, path } of personRecords(record))
    if (personWithLegalId(item, String(bindings.legalId)).holds)
      containers.set(containerOf(path), (containers.get(containerOf(path)) ?? 0) + 1);
  return containers;
}

/**
 * The find result container, by difference: where the find for the person holds a record with its legal id, and
 * the find for a legal id nobody has holds none with that one. A place where the control shows its own legal id too
 * is an echo of the query, never the container.
 */
export function learnContainer(observation: Observation): Learned {
  const { fact, subject, control } = observation;
  const echoes = holding(control);
  const found = [...holding(subject).keys()];
  const candidates: Candidate[] = found.map((location) => ({
    location,
    predicate: 'lists legalId',
    kind: echoes.has(location) ? 'sent-value' : 'own',
    absentInControl: resolve(control.record, location, {}).found === false,
    seen: { control: echoes.get(location) ?? 0, subject: 1 },
  }));
  const best = candidates
    .filter(({ kind }) => kind === 'own')
    .sort((a, b) => depthOf(a.location) - depthOf(b.location))[0];
  if (!best) {
    const why =
      found.length === 0
        ? 'no record of the answer carries the legal id asked for'
        : 'the legal id shows only where the control shows its own: an echo of the query';
    return { fact, candidates, why };
  }
  const at = resolve(subject.record, best.location, {}).value;
  const chosen: LearnedFact = {
    operation: observation.operation,
    location: best.location,
    predicate: best.predicate,
    shape: best.location === '' ? {} : { [best.location]: jsonType(at) },
    by: 'difference',
    seen: best.seen,
  };
  const why = 'the persons found: the control, a legal id nobody has, shows none there';
  return { fact, chosen, candidates, why };
}

/**
 * The proposal of one learning run: each fact learned from its latest observation, with its reason and every
 * candidate; a fact observed without evidence is listed as unlearned, with why.
 */
export function proposeLayout(entries: JournalEntry[], learned: LayoutFile['learned']): LayoutFile {
  const observations = entries.filter((entry): entry is Observation => 'subject' in entry);
  const latest = new Map(observations.map((observation) => [observation.fact, observation]));
  const changedBy = (operation: string, except: FactName) =>
    new Set(
      [...latest.values()]
        .filter((other) => other.operation === operation && other.fact !== except)
        .flatMap((other) => candidatesOf(other).map(({ location, predicate }) => `${location} ${predicate}`)),
    );
  const file: LayoutFile = { learned, facts: {} };
  const seen = entries.filter((entry): entry is Seen => !('subject' in entry));
  for (const entry of seen)
    if ('location' in entry) {
      const { fact, operation, location, predicate, why, by = 'vocabulary', shape = {}, pageKeys, ...rest } = entry;
      const earlier = file.facts[fact]?.pageKeys ?? [];
      const keys = pageKeys && { pageKeys: [...new Set([...earlier, ...pageKeys])].sort() };
      file.facts[fact] = { operation, location, predicate, shape, by, why, ...keys, ...rest };
    }
  for (const entry of seen)
    if ('unseen' in entry && !file.facts[entry.fact])
      file.unlearned = { ...file.unlearned, [entry.fact]: entry.unseen };
  for (const name of FACT_NAMES) {
    const observation = latest.get(name);
    if (!observation) continue;
    const { chosen, candidates, why } =
      name === 'person.found'
        ? learnContainer(observation)
        : learnFact(observation, changedBy(observation.operation, name));
    const weighed = candidates.map(({ location, predicate, kind }) => `${location} ${predicate} (${kind})`);
    if (chosen) file.facts[name] = { ...chosen, why, candidates: weighed };
    else file.unlearned = { ...file.unlearned, [name]: why };
  }
  return file;
}
