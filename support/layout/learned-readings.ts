// Owns reading a fact where the target's layout file says it lives, and nothing else (docs/DESIGN.md, "Strict
// readings"); without a layout file, the key vocabulary of support/readings/facts.ts reads it, the run says its
// verdicts are provisional, and each wait's last answer goes to the learning journal beside its control's. At a wait's
// deadline, learning on the answers it has tells a layout that moved (Layout changed) from a broken rule.
import {
  identified,
  listsPerson,
  mergedInto,
  personFlag,
  relativeFlag,
  reading,
  type Reading,
} from '../readings/facts.js';
import type { FactName, LayoutFile, LearnedFact, Shape } from './layout-file.js';
import {
  bound,
  expectedValue,
  jsonType,
  resolve,
  satisfies,
  segmentsOf,
  shapeChanges,
  type Bindings,
} from './locations.js';
import { pepHit, pepHitAmong, pepListLocation } from '../readings/pep-hit.js';
import { candidatesOf, differences, NAMES_TARGET, namesTarget, type Observed } from './learning.js';
import type { Continuation } from '../readings/list-reader.js';
import { recordObservation } from './learning-journal.js';
import { attachText } from '../evidence/report.js';
import { isDeepStrictEqual } from 'node:util';
import { isRecord, pointerSegment } from '../readings/json.js';

interface Person {
  gedi: string;
  person: { legalId: string };
}

/** Whom and what a fact is about: the body the When sent, the relative's legal id, the merge's two persons. */
export interface Subject {
  sent?: object;
  relative?: string;
  source?: Person;
  target?: Person;
  /** What the subject's Givens wrote, and its identity: its own generated data, which no fact is. */
  own?: Pick<Observed, 'given' | 'identity'>;
  /** The control's settled answer: written the same way without the When (support/layout/learning.ts). */
  control?: () => Promise<Observed>;
}

/**
 * A reading of one record; `settle` is handed a wait's last record, and whether the reading held on it: a learning run
 * journals it beside its control's, a strict one tells, of a record that never held, whether the layout moved.
 */
export type RecordReading = ((record: unknown) => Reading) & {
  settle?: (record: unknown, held: boolean) => Promise<LayoutChangedError | undefined>;
};

/** The fact was learned at one place, and the answer no longer has it there: never a pass, never a broken rule. */
export class LayoutChangedError extends Error {
  override readonly name = 'LayoutChangedError';
  constructor(
    readonly fact: FactName,
    readonly learned: string,
    readonly proposed: string | undefined,
    readonly changes: string[],
    holds: string,
  ) {
    super(
      `Layout changed: ${fact} was learned at ${learned}; ${changes.join('; ')}; ` +
        `${proposed ? `now proposed at ${proposed}` : 'no location is proposed'}. The answer holds: ${holds}. ` +
        'If the vendor meant it, write the new location into the layout file, review its diff and release the ' +
        'suite (docs/DESIGN.md, "The layout file").',
    );
  }
}

/** Where a list's pages hold its records: the consumers (operation 6), the subscribed persons (operation 7). */
export type EntriesFact = 'consumers.entries' | 'subscriptions.entries';

/** The facts naming whom a list entry is about, learned by their value: a consumer's id, a subscribed person's. */
export type IdentityFact = 'consumer.id' | 'subscription.person';

/** Where a person record carries whom it is about, learned by value: its own gedi (none is valid), its legal id. */
type RecordIdentity = 'person.gedi' | 'person.legalId';
/** Each is named as the binding its predicate compares with: `person.gedi = person.gedi`. */
const RECORD_IDENTITIES: RecordIdentity[] = ['person.gedi', 'person.legalId'];

/** What an identity's predicate binds: `= consumerId`, `= person.legalId`, `= person.gedi`. */
export interface Identity {
  consumerId?: string;
  person?: { gedi: string; legalId: string };
}

/** The facts of one record's state, each read by a predicate at its location. */
type StateFact = Exclude<
  FactName,
  | 'person.found'
  | 'list.continuation'
  | 'screening.pep'
  | 'screening.company'
  | EntriesFact
  | IdentityFact
  | RecordIdentity
>;

const VOCABULARY: Record<StateFact, (record: unknown, subject: Subject) => Reading> = {
  'person.deregistered': (record) => personFlag(record, 'deregistered'),
  'person.removed': (record) => personFlag(record, 'removed'),
  'person.merged': (record, { source, target }) => mergedInto(record, source!, target!),
  'relative.deceased': (record, { relative }) => relativeFlag(record, relative!, 'deceased'),
  'relative.deregistered': (record, { relative }) => relativeFlag(record, relative!, 'deregistered'),
  'consumer.identified': (entry) => identified(entry),
};

/** The operation whose answer holds each fact: the person record (op3), or a consumer's list entry (op6). */
const OPERATIONS: Record<StateFact, string> = {
  'person.deregistered': 'op3',
  'person.removed': 'op3',
  'person.merged': 'op3',
  'relative.deceased': 'op3',
  'relative.deregistered': 'op3',
  'consumer.identified': 'op6',
};

const SHOWN_AS_SENT = 'shown as sent: this target shows back what it was sent, and cannot show that it acted';

/** The relationship the client sent for the relative: what a target that shows bodies as sent shows back. */
function sentRelative(sent: object | undefined, relative: string | undefined): unknown {
  const list = (sent as { relationshipList?: { legalId?: { socialSecurityNumber?: string } }[] } | undefined)
    ?.relationshipList;
  return list?.find((entry) => entry.legalId?.socialSecurityNumber === relative);
}

const bindingsOf = ({ sent, relative, source, target }: Subject): Bindings => ({
  sent,
  relative,
  sentRelative: sentRelative(sent, relative),
  source: source && { gedi: source.gedi, legalId: source.person.legalId },
  target: target && { gedi: target.gedi, legalId: target.person.legalId },
});

const EXCERPT_CHARS = 300;
const excerpt = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'no body';
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
};

/** The reading of `fact` at its learned location alone: the predicate holds there, or the rule does not. */
function readAt(name: FactName, fact: LearnedFact, record: unknown, bindings: Bindings, date: string): Reading {
  const at = resolve(record, fact.location, bindings);
  const how = fact.by === 'as-sent' ? SHOWN_AS_SENT : `as learned on ${date}`;
  const holds = at.found && satisfies(at.value, fact.predicate, bindings);
  const found = at.found
    ? `${at.path} = ${JSON.stringify(at.value)}`
    : `${fact.location}: ${fact.absentMeansNo ? 'absent, which reads as no' : 'not in the answer'}`;
  return {
    ...reading(holds ? [`${found} (${fact.location} ${fact.predicate}, ${how})`] : [], '', found),
    looked: `${fact.location} ${fact.predicate}, and nothing else (the layout file's ${name}, by ${fact.by})`,
    ...(fact.by === 'as-sent' ? { asSent: true } : {}),
  };
}

/**
 * The observation of `record` beside the control's settled answer, or undefined where the fact has no control, or
 * where the control could not be read (it never settled, was throttled or refused): then the report says so, nothing
 * is learned from this answer, and the wait's own verdict stands.
 */
async function observe(name: FactName, operation: string, record: unknown, subject: Subject) {
  if (!subject.control || !subject.own) return undefined;
  let control: Observed;
  try {
    control = await subject.control();
  } catch (error) {
    await attachText(
      `${name}: the control could not be read`,
      `${(error as Error).message}\nNothing is learned from this answer, and the wait's own verdict stands.`,
    );
    return undefined;
  }
  return {
    fact: name,
    operation,
    ...(subject.sent ? { sent: subject.sent } : {}),
    subject: { record, bindings: bindingsOf(subject), ...subject.own },
    control,
  };
}

/**
 * Why `record`, which never satisfied the learned fact, shows a changed layout rather than a broken rule: the shape
 * around the location is gone, or learning against the control finds the fact's yes at another place, as the server's
 * own or a value the client sent under another key (never at the path it was sent). Undefined where nothing moved:
 * then the rule is broken.
 */
async function relocation(name: FactName, fact: LearnedFact, record: unknown, subject: Subject) {
  const gone = shapeChanges(record, fact.shape, bindingsOf(subject));
  const observation = gone.length === 0 ? await observe(name, fact.operation, record, subject) : undefined;
  const yes = (predicate: string) => predicate === fact.predicate || (NAMES_TARGET.has(name) && namesTarget(predicate));
  const elsewhere = (observation ? candidatesOf(observation) : []).filter(
    ({ kind, location, predicate }) => kind !== 'same-path' && location !== fact.location && yes(predicate),
  );
  if (gone.length === 0 && elsewhere.length === 0) return undefined;
  const paths = elsewhere.map(({ location, predicate }) => `${location} ${predicate}`);
  const changes = [...gone, ...(paths.length > 0 ? [`its yes is found elsewhere: ${paths.join(', ')}`] : [])];
  return new LayoutChangedError(name, `${fact.location} ${fact.predicate}`, paths[0], changes, excerpt(record));
}

/** Whether `answer` holds the fact's predicate at its location. */
function holdsAt(fact: LearnedFact, answer: unknown, bindings: Bindings): boolean {
  const at = resolve(answer, fact.location, bindings);
  return at.found && satisfies(at.value, fact.predicate, bindings);
}

/**
 * Where a page holds its records, by the reader's words: the page itself when it is a list, else its one top-level
 * list, or the one holding records when it has several; undefined when it has none.
 */
function entriesLocation(page: unknown): string | undefined {
  if (Array.isArray(page)) return '';
  if (!isRecord(page)) return undefined;
  const lists = Object.entries(page).filter(([, value]) => Array.isArray(value));
  const [key] = lists.length === 1 ? lists[0]! : (lists.find(([, value]) => (value as unknown[]).some(isRecord)) ?? []);
  return key === undefined ? undefined : `/${pointerSegment(key)}`;
}

/** Where `value` shows in `item`: its shallowest pointer through objects, never into a list (a relative's). */
function pointerTo(item: unknown, value: unknown, pointer = ''): string | undefined {
  if (!isRecord(item)) return undefined;
  const here = Object.keys(item).find((key) => item[key] === value);
  if (here !== undefined) return `${pointer}/${pointerSegment(here)}`;
  const deeper = Object.entries(item).flatMap(
    ([key, inner]) => pointerTo(inner, value, `${pointer}/${pointerSegment(key)}`) ?? [],
  );
  return deeper.sort((a, b) => segmentsOf(a).length - segmentsOf(b).length)[0];
}

/** A page's keys that are not counts (a stated size, a total, an offset): what a changed page may add or lose. */
const keysOf = (page: unknown): string[] =>
  isRecord(page) ? Object.keys(page).filter((key) => typeof page[key] !== 'number') : [];

/**
 * The facts of one target. With its layout file, each fact is read at its learned location only; a fact the file
 * does not hold, or a run without a file, is read by the key vocabulary, and such verdicts are provisional.
 */
export class LearnedFacts {
  /** `journal`: the folder a learning run writes its observations to (support/layout/learning-journal.ts). */
  constructor(
    readonly layout: LayoutFile | undefined,
    private readonly journal?: string,
  ) {}

  /**
   * The part of a find answer (operation 4) that holds its persons: the learned container alone, so that an echo of
   * the query beside it is never a person found; the whole answer without a layout file; nothing for an empty answer
   * (a 204). A container gone from an answer that has a body is a changed layout: no absence is read from it.
   */
  foundIn(answer: unknown): unknown {
    const fact = this.layout?.facts['person.found'];
    if (!fact) return answer;
    if (answer === undefined || answer === null || answer === '') return undefined;
    const at = resolve(answer, fact.location, {});
    if (at.found) return at.value;
    const gone = shapeChanges(answer, fact.shape, {});
    const learned = `${fact.location || '(the answer itself)'} ${fact.predicate}`;
    throw new LayoutChangedError('person.found', learned, undefined, gone, excerpt(answer));
  }

  /**
   * The records of a list's pages, at the learned location alone: a page without it is a changed layout, and so is a
   * read that `ended` on pages with a key beside it that the learned pages never had (a marker nobody learned may name
   * a next page; a read that stopped at the record it looked for relied on no end). Without a layout file, the body as
   * read (one page's, or the list of them), which the reader's words search whole.
   */
  entriesOf(name: EntriesFact, pages: unknown[], ended = false): unknown {
    const fact = this.layout?.facts[name];
    if (!fact) return pages.length === 1 ? pages[0] : pages;
    const continuation = this.continuation();
    const known = new Set([
      ...(fact.pageKeys ?? []),
      ...[fact.location, continuation ?? ''].filter((at) => at.startsWith('/')).map((at) => segmentsOf(at)[0]!),
    ]);
    const learned = `${fact.location || '(the page itself)'} ${fact.predicate}`;
    return pages.flatMap((page, index) => {
      const at = resolve(page, fact.location, {});
      if (!at.found || !Array.isArray(at.value)) {
        const gone = at.found ? [`page ${index + 1} has no list there`] : [`page ${index + 1} has nothing there`];
        throw new LayoutChangedError(name, learned, entriesLocation(page), gone, excerpt(page));
      }
      const unknown = ended && fact.location !== '' ? keysOf(page).filter((key) => !known.has(key)) : [];
      if (unknown.length > 0) {
        const beside = `page ${index + 1} carries ${unknown.join(', ')}, which the learned pages never had`;
        throw new LayoutChangedError(name, learned, fact.location, [beside], excerpt(page));
      }
      return at.value as unknown[];
    });
  }

  /** A learning run journals where a list's pages held their records (`by: vocabulary`), and the keys beside them. */
  observeEntries(name: EntriesFact, operation: string, pages: unknown[]): void {
    if (!this.journal || pages.length === 0) return;
    const location = entriesLocation(pages[0]);
    if (location === undefined) return;
    const items = location === '' ? undefined : segmentsOf(location)[0];
    const pageKeys = [...new Set(pages.flatMap(keysOf))].filter((key) => key !== items).sort();
    const shape = location === '' ? {} : { [location]: 'array' as const };
    const why = 'where every page read held its records';
    recordObservation(this.journal, {
      fact: name,
      operation,
      location,
      predicate: 'holds entries',
      why,
      shape,
      pageKeys,
    });
  }

  /** Where the layout file says a list's entry names `name` (`/legalId = person.legalId`); undefined without one. */
  whereNamed(name: IdentityFact): string | undefined {
    const fact = this.layout?.facts[name];
    return fact && `${fact.location} ${fact.predicate}`;
  }

  /**
   * The entry of a list's `entries` that names the identity where the layout file says (`consumer.id`,
   * `subscription.person`); without that fact, the one the reader's words (`vocabulary`) find. A strict read that finds
   * none where the reader's words find one is a changed layout: the identity moved, and an absence read at the old
   * place would pass unseen.
   */
  entryNaming(name: IdentityFact, entries: unknown, identity: Identity, vocabulary: (entries: unknown) => unknown) {
    const fact = this.layout?.facts[name];
    if (!fact) return vocabulary(entries);
    const bindings = identity as Bindings;
    const found = (Array.isArray(entries) ? entries : []).find((entry) => holdsAt(fact, entry, bindings));
    if (found !== undefined) return found;
    const moved = vocabulary(entries);
    if (moved === undefined) return undefined;
    const wanted = expectedValue(fact.predicate, bindings);
    const learned = `${fact.location} ${fact.predicate}`;
    const change = `no entry carries ${JSON.stringify(wanted)} there, and one carries it elsewhere`;
    throw new LayoutChangedError(name, learned, pointerTo(moved, wanted), [change], excerpt(moved));
  }

  /**
   * Whether an operation 3 answer is the person's own record: its gedi or legal id where the layout file says a record
   * carries them (`person.gedi`, `person.legalId`), and, by the reader's words (`listsPerson`), more of the person
   * than identifiers (a placeholder is not yet its record). A record that carries neither there, where the reader's
   * words find it the person's own, is a changed layout; a learning run journals where they are, by value.
   */
  ownRecord(record: unknown, stored: Person): Reading {
    const byWords = listsPerson(record, stored);
    const person = { gedi: stored.gedi, legalId: stored.person.legalId };
    const learned = RECORD_IDENTITIES.filter((name) => this.layout?.facts[name]);
    if (learned.length === 0) {
      if (byWords.holds) for (const name of RECORD_IDENTITIES) this.observeRecordIdentity(name, record, person);
      return byWords;
    }
    const bindings = { person };
    const names = learned.some((name) => holdsAt(this.layout!.facts[name]!, record, bindings));
    if (names || !byWords.holds) return byWords;
    const fact = this.layout!.facts[learned[0]!]!;
    const wanted = expectedValue(fact.predicate, bindings);
    const change = `the record carries neither ${learned.join(' nor ')} there, and the reader's words find it its own`;
    throw new LayoutChangedError(
      learned[0]!,
      `${fact.location} ${fact.predicate}`,
      pointerTo(record, wanted),
      [change],
      excerpt(record),
    );
  }

  /** Where a person's own record carries its gedi or legal id, by value; a record without a gedi is a valid answer. */
  private observeRecordIdentity(name: RecordIdentity, record: unknown, person: Identity['person']) {
    if (!this.journal) return;
    const location = pointerTo(record, bound(name, { person }));
    const why = "where the person's own record carried it";
    if (location !== undefined)
      return recordObservation(this.journal, {
        fact: name,
        operation: 'op3',
        location,
        predicate: `= ${name}`,
        why,
        by: 'value',
      });
    const what = name.split('.')[1];
    const unseen = `the person's own record carries no ${what}: a valid answer (the vendor's carry no gedi)`;
    recordObservation(this.journal, { fact: name, operation: 'op3', unseen });
  }

  /**
   * A learning run journals where the entry a wait found carries its identity (`by: value`): a consumer's id; a
   * subscribed person's legal id, else its gedi.
   */
  observeIdentity(name: IdentityFact, operation: string, entry: unknown, identity: Identity): void {
    if (!this.journal) return;
    const words = name === 'consumer.id' ? (['consumerId'] as const) : (['person.legalId', 'person.gedi'] as const);
    for (const word of words) {
      const location = pointerTo(entry, bound(word, identity as Bindings));
      if (location === undefined) continue;
      const why = 'where the entry a wait found carried its own value';
      return recordObservation(this.journal, {
        fact: name,
        operation,
        location,
        predicate: `= ${word}`,
        why,
        by: 'value',
      });
    }
    recordObservation(this.journal, {
      fact: name,
      operation,
      unseen: `the entry found carries no ${words.join(' or ')}`,
    });
  }

  /** Where the consumer and subscription lists name their next page, as learned; undefined: by the reader's words. */
  continuation(): string | undefined {
    return this.layout?.facts['list.continuation']?.location;
  }

  /**
   * A learning run journals where a list read past its first page found its next one (`by: vocabulary`), or why a
   * list that ended on its first page showed none.
   */
  observeContinuation(operation: string, continuedBy: Continuation | string | undefined): void {
    if (!this.journal || continuedBy === undefined) return;
    const fact = 'list.continuation';
    if (typeof continuedBy === 'string')
      return recordObservation(this.journal, { fact, operation, unseen: continuedBy });
    const predicate = continuedBy.param ? `continues by ${continuedBy.param}` : 'continues';
    const why = 'where a page read past the first named its next one';
    recordObservation(this.journal, { fact, operation, location: continuedBy.at, predicate, why });
  }

  /**
   * Whether a screening answer (operation 8) shows a PEP hit: among the match entries at the learned location alone,
   * unless the answer or the entry says no match. A location gone, where the reader's words find the PEP match at
   * another, or where the shape around it is gone, is a changed layout; a learning run journals where they found it.
   */
  pepHit(body: unknown): Reading {
    const fact = this.layout?.facts['screening.pep'];
    if (!fact) {
      const seen = pepHit(body);
      if (this.journal && seen.holds) this.observePep(body);
      return seen;
    }
    const looked =
      `the match entries at ${fact.location} ${fact.predicate}, and nothing else (the layout file's screening.pep, ` +
      `by ${fact.by}, learned on ${this.layout!.learned.date}), unless the answer or an entry says it is no match`;
    const at = resolve(body, fact.location, {});
    if (at.found && Array.isArray(at.value)) return pepHitAmong(body, at.value, at.path, looked);
    const gone = shapeChanges(body, fact.shape, {});
    const now = pepListLocation(body);
    const elsewhere = typeof now === 'string' && now !== fact.location ? now : undefined;
    if (gone.length > 0 || elsewhere) {
      const changes = gone.length > 0 ? gone : [`${fact.location} is not in the answer`];
      throw new LayoutChangedError(
        'screening.pep',
        `${fact.location} ${fact.predicate}`,
        elsewhere,
        changes,
        excerpt(body),
      );
    }
    return reading([], looked, `${fact.location}: not in the answer`);
  }

  /** Where the reader's words found the PEP match of a hit, with the shape on the way to it, or why none is named. */
  private observePep(body: unknown): void {
    const fact = 'screening.pep';
    const location = pepListLocation(body);
    if (typeof location !== 'string')
      return recordObservation(this.journal!, { fact, operation: 'op8', unseen: location.unseen });
    const shape: Shape = {};
    for (const { pointer, value } of resolve(body, location, {}).along) {
      if (pointer.includes('[')) break;
      shape[pointer] = jsonType(value);
    }
    const why = "where the politician test case's answer listed its PEP match, by the reader's words";
    recordObservation(this.journal!, { fact, operation: 'op8', location, predicate: 'lists PEP', why, shape });
  }

  /**
   * Whether the two company test cases' outcomes (`screeningOutcome`: identifiers, timestamps and the echoed input
   * left out) differ, where the layout file says; without it, anywhere, and a learning run journals where, by
   * difference, against a repeat of the first case (`again`, asked only then). Strict, a location in neither answer,
   * or outcomes that differ only elsewhere, is a changed layout.
   */
  async companyCasesDiffer(first: unknown, second: unknown, again: () => Promise<unknown>): Promise<Reading> {
    const fact = this.layout?.facts['screening.company'];
    if (!fact) {
      const differ = !isDeepStrictEqual(first, second);
      if (this.journal && differ) this.observeCompany(first, second, await again());
      const looked = 'the two outcomes whole, identifiers, timestamps and the echoed input left out';
      return reading(differ ? ['the two outcomes differ'] : [], looked, 'the two outcomes are the same');
    }
    const looked = `${fact.location} in both outcomes, and nothing else (the layout file's screening.company)`;
    const [a, b] = [first, second].map((outcome) => resolve(outcome, fact.location, {}));
    const learned = `${fact.location} ${fact.predicate}`;
    if (!a!.found && !b!.found)
      throw new LayoutChangedError(
        'screening.company',
        learned,
        differences(first, second, first)[0],
        [`${fact.location} is in neither answer`],
        excerpt(first),
      );
    const shown = (at: typeof a) => (at!.found ? JSON.stringify(at!.value) : 'absent');
    const both = `${fact.location}: ${shown(a)} and ${shown(b)}`;
    if (a!.found !== b!.found || !isDeepStrictEqual(a!.value, b!.value))
      return reading([`${both} (as learned on ${this.layout!.learned.date})`], looked, both);
    const elsewhere = differences(first, second, first);
    if (elsewhere.length > 0)
      throw new LayoutChangedError(
        'screening.company',
        learned,
        elsewhere[0],
        [`the outcomes are the same there and differ at ${elsewhere.join(', ')}`],
        excerpt(first),
      );
    return reading([], looked, both);
  }

  /** Where the two company cases differ, and stay the same on a repeat of the first: by difference, for the review. */
  private observeCompany(first: unknown, second: unknown, again: unknown): void {
    const fact = 'screening.company';
    const [location, ...others] = differences(first, second, again);
    if (location === undefined)
      return recordObservation(this.journal!, {
        fact,
        operation: 'op9',
        unseen: 'the two company cases differ only in numbers, or in what a repeat of the first changed too',
      });
    const seen = { control: resolve(first, location, {}).value, subject: resolve(second, location, {}).value };
    const why = 'where the two company cases differ, and a repeat of the first does not';
    const candidates = [location, ...others].map((each) => `${each} differs`);
    recordObservation(this.journal!, {
      fact,
      operation: 'op9',
      location,
      predicate: 'differs',
      why,
      by: 'difference',
      seen,
      candidates,
    });
  }

  /** A learning run journals the find for a person beside the find for a legal id nobody has, its control. */
  async observeFound(legalId: string, answer: unknown, control: () => Promise<{ legalId: string; answer: unknown }>) {
    if (!this.journal) return;
    const other = await control().catch(async (error: unknown) => {
      await attachText('person.found: the control find could not be read', `${(error as Error).message}`);
    });
    if (!other) return;
    const side = (record: unknown, id: string) => ({ record, bindings: { legalId: id }, given: {}, identity: [] });
    recordObservation(this.journal, {
      fact: 'person.found',
      operation: 'op4',
      subject: side(answer, legalId),
      control: side(other.answer, other.legalId),
    });
  }

  /** The reading a spec's wait passes: `facts.reading('person.deregistered', { sent, own, control })`. */
  reading(name: StateFact, subject: Subject = {}): RecordReading {
    const fact = this.layout?.facts[name];
    const { journal } = this;
    if (!fact)
      return Object.assign((record: unknown) => VOCABULARY[name](record, subject), {
        settle: async (record: unknown) => {
          const observation = journal ? await observe(name, OPERATIONS[name], record, subject) : undefined;
          if (observation) recordObservation(journal!, observation);
          return undefined;
        },
      });
    const { date } = this.layout!.learned;
    const bindings = bindingsOf(subject);
    return Object.assign((record: unknown) => readAt(name, fact, record, bindings, date), {
      settle: async (record: unknown, held: boolean) => (held ? undefined : relocation(name, fact, record, subject)),
    });
  }
}
