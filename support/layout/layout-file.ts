// Owns the layout file of one target (docs/DESIGN.md, "The layout file"): where each documented fact lives in its
// answers, as learned and reviewed. It reads and checks the file; it knows nothing of HTTP or of waits.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../run/config.js';

/** The facts a spec reads at a learned location, each named after what it says of whom. */
export const FACT_NAMES = [
  'person.deregistered',
  'person.removed',
  'person.merged',
  'relative.deceased',
  'relative.deregistered',
  'consumer.identified',
  'person.found',
  'list.continuation',
  'consumers.entries',
  'subscriptions.entries',
  'screening.pep',
  'consumer.id',
  'subscription.person',
  'screening.company',
  'person.gedi',
  'person.legalId',
] as const;
export type FactName = (typeof FACT_NAMES)[number];

/**
 * How a location was established: `difference` (subject against a control: the server's own), `value` (a fact with no
 * natural control, found by its value), `vocabulary` (by the key names of support/readings/facts.ts), `as-sent` (all
 * that shows is the client's own value, at the path it was sent: the target cannot show that it acted).
 */
export type LearnedBy = 'difference' | 'value' | 'vocabulary' | 'as-sent';

/** JSON types of the objects around a location, by pointer: what a changed layout no longer has. */
export type Shape = Record<string, 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null'>;

export interface LearnedFact {
  /** The catalogue id of the operation whose answer holds the fact (op3: the person record). */
  operation: string;
  /**
   * A JSON Pointer (`""`: the answer itself); a segment `[inner/pointer=binding]` selects the list entry whose value
   * there is the binding's; or a header's name (`Link`).
   */
  location: string;
  /**
   * `= true`, `= "REMOVED"`, `= target.gedi`, `> 0`: what the value at the location is when the fact holds; `lists
   * legalId`: the persons there (a list's entries, or the object itself) include one with the legal id asked for;
   * `lists PEP`: the match entries there include one whose own category says PEP, and no field of the answer or the
   * entry says it is no match; `continues`: a list page names its next one there, and a page without it is the last;
   * `holds entries`: a list page's records are there, and nowhere else; `differs`: two answers that must differ (the
   * company test cases) differ there.
   */
  predicate: string;
  /**
   * A list's entries: every key its learned pages carried beside them, counts aside (a stated size, a total). A page
   * with another is a changed layout: a marker nobody learned may name a next page.
   */
  pageKeys?: string[];
  /** The location, when absent under an intact shape, reads as "no" (a status that lists only what is true). */
  absentMeansNo?: boolean;
  /** What the control's answer and the subject's both had around the location: a changed layout no longer has it. */
  shape: Shape;
  by: LearnedBy;
  /** What the location held for the control and for the subject, as learned. */
  seen?: { control?: unknown; subject?: unknown };
  /** A learning run's reason for its choice, and every candidate it weighed, best first: for the reviewer. */
  why?: string;
  candidates?: string[];
}

export interface LayoutFile {
  /** Who or what wrote it, and when: a learning run's id and date, or "by hand from simulator/layouts/vendor.ts". */
  learned: { by: string; date: string; run?: string };
  facts: Partial<Record<FactName, LearnedFact>>;
  /** The facts a learning run observed and found no evidence for, each with why: nothing is proposed for them. */
  unlearned?: Partial<Record<FactName, string>>;
}

const BY: readonly LearnedBy[] = ['difference', 'value', 'vocabulary', 'as-sent'];
const TYPES = new Set(['object', 'array', 'string', 'number', 'boolean', 'null']);

/** What is wrong with one fact's entry, or undefined. */
function problemOf(name: string, fact: Partial<LearnedFact>): string | undefined {
  if (!(FACT_NAMES as readonly string[]).includes(name))
    return `unknown fact "${name}" (known: ${FACT_NAMES.join(', ')})`;
  if (typeof fact.operation !== 'string') return `${name}: "operation" must name a catalogue operation (op3)`;
  if (typeof fact.location !== 'string' || !/^($|\/|[A-Za-z-]+$)/.test(fact.location))
    return `${name}: "location" must be a JSON Pointer ("" or starting with "/"), or a header's name`;
  if (
    typeof fact.predicate !== 'string' ||
    !/^((=|>)\s*\S|lists (legalId|PEP)$|holds entries$|differs$|continues( by \S+)?$)/.test(fact.predicate)
  )
    return (
      `${name}: "predicate" must read "= <value>", "> <number>", "lists legalId", "lists PEP", "holds entries", ` +
      '"differs" or "continues [by <param>]"'
    );
  if (
    fact.pageKeys !== undefined &&
    !(Array.isArray(fact.pageKeys) && fact.pageKeys.every((k) => typeof k === 'string'))
  )
    return `${name}: "pageKeys" must list the keys of its pages`;
  if (!BY.includes(fact.by as LearnedBy)) return `${name}: "by" must be one of ${BY.join(', ')}`;
  const shape = fact.shape ?? {};
  const bad = Object.entries(shape).find(([, type]) => !TYPES.has(type));
  return bad ? `${name}: shape ${bad[0]} has no JSON type ("${bad[1]}")` : undefined;
}

/** Reads and checks a layout file; a missing or malformed file is a setting to fix, named with its path. */
export function readLayoutFile(path: string, variable = 'CONTRACT_LAYOUT'): LayoutFile {
  let parsed: Partial<LayoutFile>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LayoutFile>;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ConfigError(
      variable,
      missing
        ? `names ${path}, which does not exist: point it at the target's reviewed layout file ` +
            '(README "A new target: its layout file")'
        : `names ${path}, which is not JSON (${(error as Error).message}): fix or re-learn the file`,
    );
  }
  const facts = parsed.facts ?? {};
  const problems = Object.entries(facts).flatMap(([name, fact]) => problemOf(name, fact ?? {}) ?? []);
  if (typeof parsed.learned?.date !== 'string') problems.unshift('"learned" must say by whom and on which date');
  if (problems.length > 0) throw new ConfigError(variable, `names ${path}, a layout file with ${problems.join('; ')}`);
  return parsed as LayoutFile;
}
