// The honest options (SIMULATOR_STATUS_FORM, _RELATIONS_AS_SENT, _SCREENING_PER_LIST, _FIND_ECHO):
// answers a real service could send that move a documented fact to another place and keep every
// promise. Each reshapes what a layout rendered, so it needs to know where that layout puts a
// record, a find answer's persons and a screening answer's matches (`PLACES`).
import type { Layout, ResolvedSimulatorOptions } from '../options.js';
import type { Fields } from '../persons.js';
import type { PersonView } from '../person-queries.js';
import type { ScreeningMatch, ScreeningResult } from '../screening.js';
import type { Reply, ResponseLayout } from './layout.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rendered bodies are reshaped freely
type Json = Record<string, any>;

interface Places {
  /** The person record in an operation 3 body. */
  record(body: Json): Json;
  /** The person record in a subscription entry. */
  entryRecord(entry: Json): Json;
  /** The object that holds the flat flags and the request fields (the record, or its `attributes`). */
  fields(record: Json): Json;
  /** The object holding the match list of a screening body, and the list's key in it. */
  matches(body: Json): { holder: Json; key: string };
}

const PLACES: Record<Layout, Places> = {
  standard: {
    record: (body) => body,
    entryRecord: (entry) => entry,
    fields: (record) => record,
    matches: (body) => ({ holder: body, key: 'matches' }),
  },
  alternate: {
    record: (body) => body.data,
    entryRecord: (entry) => entry.person,
    fields: (record) => record.attributes,
    matches: (body) => ({ holder: body.data, key: 'hits' }),
  },
  vendor: {
    record: (body) => body,
    entryRecord: (entry) => entry,
    fields: (record) => record,
    matches: (body) => ({ holder: body.screeningResult, key: 'matches' }),
  },
};

/** The person's marks: the vendor's own status object, else removed, merged and deregistered from the stored state. */
function marksOf(layout: Layout, record: Json, { state }: PersonView): Record<string, boolean> {
  if (layout === 'vendor') return { ...(record.status as Record<string, boolean>) };
  const marks = { removed: state.removed, merged: state.mergedInto !== undefined, deregistered: state.deregistered };
  return { active: !Object.values(marks).some(Boolean), ...marks };
}

// The one word a person's state is spelled as; the first mark that holds wins. DECEASED only where a layout
// computes the person's death (the vendor's `status.deceased`).
const PRECEDENCE = ['removed', 'merged', 'deregistered', 'deceased'] as const;

function restatus(layout: Layout, record: Json, view: PersonView, form: 'sparse' | 'word'): void {
  const marks = marksOf(layout, record, view);
  const fields = PLACES[layout].fields(record);
  // The flat flags go: the state is told once, in `status`.
  delete fields.deregistered;
  if (layout === 'standard') delete fields.removed;
  if (form === 'sparse') {
    record.status = Object.fromEntries(Object.entries(marks).filter(([, value]) => value));
    return;
  }
  record.status = (PRECEDENCE.find((mark) => marks[mark]) ?? 'active').toUpperCase();
  // Protection is no state of the person's life: the vendor's `status.protected` stays, as a field of its own.
  if (layout === 'vendor') record.protected = marks.protected === true;
}

/** A relative as the transitions left it: its own legal id and the marks the server computed. */
function relationOf(entry: Fields): Fields {
  const legalId = entry.legalId as Fields | undefined;
  return {
    relationType: entry.hierarchicalRelationship ?? entry.nonHierarchicalRelationship ?? null,
    ...(legalId?.socialSecurityNumber === undefined ? {} : { legalId: legalId.socialSecurityNumber }),
    deceased: entry.deceased === true,
    deregistered: entry.deregistered === true,
  };
}

/**
 * The relatives as sent (`relationshipList`, exactly the request's) beside `relations`, the stored state's: the
 * vendor's own v3 `relations` already are that, so the vendor record only gains the list as sent.
 */
function withRelationsAsSent(layout: Layout, record: Json, { state }: PersonView): void {
  const sent = state.sent?.relationshipList;
  const stored = state.fields.relationshipList;
  if (sent === undefined || !Array.isArray(stored)) return;
  const fields = PLACES[layout].fields(record);
  fields.relationshipList = structuredClone(sent);
  if (layout !== 'vendor') fields.relations = (stored as Fields[]).map(relationOf);
}

const LIST_TYPES: Record<ScreeningMatch['category'], string> = {
  PEP: 'PEP',
  SANCTIONS: 'SANCTION',
  ADVERSE_MEDIA: 'RCA',
};

/** One entry per list screened, each with the layout's own match entries of that list and their number. */
function perList(layout: ResponseLayout, places: Places, result: ScreeningResult): Reply {
  const reply = layout.screening(result);
  const body = structuredClone(reply.body) as Json;
  const lists = (Object.keys(LIST_TYPES) as ScreeningMatch['category'][]).map((category) => {
    // Near misses (a mutant's candidates) are sanctions candidates, as the vendor layout counts them.
    const part: ScreeningResult = {
      ...result,
      matches: result.matches.filter((match) => match.category === category),
      candidates: category === 'SANCTIONS' ? result.candidates : undefined,
      matchCount: undefined,
    };
    const { holder, key } = places.matches(layout.screening(part).body as Json);
    const counted = part.matches.filter((match) => match.matched !== false).length + (part.candidates?.length ?? 0);
    return { listType: LIST_TYPES[category], numberOfMatches: counted, matches: holder[key] as unknown[] };
  });
  const { holder, key } = places.matches(body);
  holder[key] = lists;
  return { ...reply, body };
}

/** The layout with the honest options of `options` applied; unchanged when none is set. */
export function honestShapes(layout: ResponseLayout, options: ResolvedSimulatorOptions): ResponseLayout {
  const name = options.layout;
  const places = PLACES[name];
  const { statusForm, relationsAsSent } = options;
  const restated = statusForm !== 'layout' || relationsAsSent;
  const restate = (record: Json, view: PersonView): Json => {
    if (statusForm !== 'layout') restatus(name, record, view, statusForm);
    if (relationsAsSent) withRelationsAsSent(name, record, view);
    return record;
  };
  let shaped = layout;
  if (restated) {
    const inner = shaped;
    shaped = {
      ...inner,
      person: (view) => {
        const reply = inner.person(view);
        const body = structuredClone(reply.body) as Json;
        restate(places.record(body), view);
        return { ...reply, body };
      },
      found: (views, echo, query) => {
        const reply = inner.found(views, echo, query);
        if (views.length === 0 || echo) return reply;
        const body = structuredClone(reply.body) as Json;
        if (name === 'vendor') restate(body, views[0]!);
        else
          (name === 'standard' ? body.results : body.data).forEach((record: Json, i: number) =>
            restate(record, views[i]!),
          );
        return { ...reply, body };
      },
      subscription: (view) => {
        const entry = structuredClone(inner.subscription(view)) as Json;
        restate(places.entryRecord(entry), view.person);
        return entry;
      },
    };
  }
  if (options.findEcho === 'searchParameters') {
    const inner = shaped;
    // The vendor's one object (or 204) and the alternate's 404 give way to the wrapper: a list of every person found.
    // A mutant's echo is this shape's own: the query under searchParameters, and a `field` echo's legal id beside it.
    shaped = {
      ...inner,
      found: (views, echo, query) => {
        const legalId = echo?.legalId ?? query?.legalId;
        if (legalId === undefined) return inner.found(views, echo, query);
        return {
          status: 200,
          body: {
            results: views.map((view) => places.record(inner.person(view).body as Json)),
            searchParameters: { legalId },
            ...(echo?.as === 'field' ? { legalId } : {}),
          },
        };
      },
    };
  }
  if (options.screeningPerList) {
    const inner = shaped;
    shaped = { ...inner, screening: (result) => perList(inner, places, result) };
  }
  return shaped;
}
