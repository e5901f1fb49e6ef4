// Owns reading a fact where the target's layout file says it lives, and nothing else (docs/DESIGN.md, "Strict
// readings"); without a layout file, the key vocabulary of support/readings/facts.ts reads it, and the run says its
// verdicts are provisional. At a wait's deadline it tells a layout that moved (Layout changed) from a broken rule.
import { identified, mergedInto, personFlag, relativeFlag, reading, type Reading } from '../readings/facts.js';
import type { FactName, LayoutFile, LearnedFact } from './layout-file.js';
import { resolve, satisfies, shapeChanges, type Bindings } from './locations.js';

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
}

/** A reading of one record, and what a record that never satisfied it says of the layout (support/verbs/persons.ts). */
export type RecordReading = ((record: unknown) => Reading) & {
  relocate?: (record: unknown) => LayoutChangedError | undefined;
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

/** The fact as support/readings/facts.ts reads it by key names, everywhere in the record. */
const VOCABULARY: Record<FactName, (record: unknown, subject: Subject) => Reading> = {
  'person.deregistered': (record) => personFlag(record, 'deregistered'),
  'person.removed': (record) => personFlag(record, 'removed'),
  'person.merged': (record, { source, target }) => mergedInto(record, source!, target!),
  'relative.deceased': (record, { relative }) => relativeFlag(record, relative!, 'deceased'),
  'relative.deregistered': (record, { relative }) => relativeFlag(record, relative!, 'deregistered'),
  'consumer.identified': (entry) => identified(entry),
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
 * Why `record`, which never satisfied the learned fact, shows a changed layout rather than a broken rule: the shape
 * around the location is gone, or the vocabulary finds the fact's yes at another place, as the server's own and not
 * the client's mark shown back. Undefined where nothing moved: then the rule is broken.
 */
function relocation(
  name: FactName,
  fact: LearnedFact,
  record: unknown,
  subject: Subject,
): LayoutChangedError | undefined {
  const bindings = bindingsOf(subject);
  const at = resolve(record, fact.location, bindings);
  const gone = shapeChanges(record, fact.shape, bindings);
  const elsewhere = (VOCABULARY[name](record, subject).located ?? []).filter(
    ({ path, asSent }) => !asSent && path !== at.path,
  );
  if (gone.length === 0 && elsewhere.length === 0) return undefined;
  const paths = elsewhere.map(({ path }) => path);
  const changes = [...gone, ...(paths.length > 0 ? [`its yes is found elsewhere: ${paths.join(', ')}`] : [])];
  const proposed = paths[0];
  return new LayoutChangedError(name, `${fact.location} ${fact.predicate}`, proposed, changes, excerpt(record));
}

/**
 * The facts of one target. With its layout file, each fact is read at its learned location only; a fact the file
 * does not hold, or a run without a file, is read by the key vocabulary, and such verdicts are provisional.
 */
export class LearnedFacts {
  constructor(readonly layout: LayoutFile | undefined) {}

  /** The reading a spec's wait passes: `facts.reading('person.deregistered', { sent })`. */
  reading(name: FactName, subject: Subject = {}): RecordReading {
    const fact = this.layout?.facts[name];
    if (!fact) return (record: unknown) => VOCABULARY[name](record, subject);
    const { date } = this.layout!.learned;
    const bindings = bindingsOf(subject);
    return Object.assign((record: unknown) => readAt(name, fact, record, bindings, date), {
      relocate: (record: unknown) => relocation(name, fact, record, subject),
    });
  }
}
