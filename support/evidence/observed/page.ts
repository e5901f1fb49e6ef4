// Owns the page a person reads: for every "not shown" of the documentation (docs/not-shown.json) what this target
// did and the evidence, or why no run can observe it; the time to consistency; what reading each list cost; what
// changed since the last run.
import { readFileSync } from 'node:fs';
import {
  answersOf,
  documentedValuesOf,
  mediaTypesOf,
  pagingsOf,
  type Interval,
  type ListCost,
  type ObservedCase,
  type ObservedContract,
  type StatusObservation,
  type Timing,
} from './model.js';

/** `topic`: the part of the quoted sentence an item answers; `unobservable`: why no run can observe it. */
export const NOT_SHOWN = (
  JSON.parse(readFileSync(new URL('../../../docs/not-shown.json', import.meta.url), 'utf8')) as {
    items: { id: string; where: string; quote: string; topic?: string; unobservable?: string }[];
  }
).items;

type Answer = (contract: ObservedContract) => string | undefined;
type Schema = { type?: unknown; properties?: Record<string, unknown>; items?: unknown; enum?: unknown[] };

function shapeOf(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 2) return '…';
  const { type, properties, items } = schema as Schema;
  if (properties)
    return `{${Object.entries(properties)
      .map(([key, inner]) =>
        inner && typeof inner === 'object' && ('properties' in inner || 'items' in inner)
          ? `${key}:${shapeOf(inner, depth + 1)}`
          : key,
      )
      .join(',')}}`;
  if (type === 'array') return `[${shapeOf(items, depth + 1)}]`;
  return String(type);
}

/** A schema and every schema inside it, depth first. */
function* schemasIn(schema: unknown): Generator<Schema> {
  if (!schema || typeof schema !== 'object') return;
  yield schema;
  for (const inner of Object.values((schema as Schema).properties ?? {})) yield* schemasIn(inner);
  yield* schemasIn((schema as Schema).items);
}

const mediaOf = (seen: StatusObservation): string => mediaTypesOf(seen).join(' or ') || 'no Content-Type';

/** The cases whose operation and purpose, as `op6 list consumers`, match `kind`. */
const of = (contract: ObservedContract, kind: RegExp): ObservedCase[] =>
  contract.cases.filter((observed) => kind.test(`${observed.operation} ${observed.purpose}`));

function statusLine(cases: ObservedCase[]): string {
  const counts = new Map<string, number>();
  for (const { status, seen } of answersOf(cases)) counts.set(status, (counts.get(status) ?? 0) + seen.count);
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  return [...counts].map(([status, count]) => `${status} in ${count} of ${total}`).join(', ');
}

function bodies(cases: ObservedCase[]): string {
  const shapes = answersOf(cases).flatMap(({ status, seen }) =>
    status.startsWith('2') && seen.schema ? [`${status} \`${shapeOf(seen.schema)}\``] : [],
  );
  return [...new Set(shapes)].join('; ') || 'no body';
}

/** Where the documented names (gedi, IDENTIFIED, ...) were found in the accepted answers. */
function documentedNames(cases: ObservedCase[]): string {
  const places = Object.entries(documentedValuesOf(cases)).map(
    ([name, paths]) => `${name} at ${paths.map((path) => `\`${path}\``).join(', ')}`,
  );
  return places.length ? ` ${places.join('; ')}.` : '';
}

/** What `say` makes of the cases of `kind`, with the evidence. */
const about =
  (kind: RegExp, say: (cases: ObservedCase[]) => string): Answer =>
  (c) => {
    const cases = of(c, kind);
    const evidence = cases.map((observed) => `"${observed.purpose}" ×${observed.samples}`);
    return cases.length === 0 ? undefined : `${say(cases)} (evidence: ${evidence.join(', ')})`;
  };

const response = (cases: ObservedCase[]) =>
  `Statuses: ${statusLine(cases)}. Body: ${bodies(cases)}.${documentedNames(cases)}`;

const list = (cases: ObservedCase[]) =>
  `Body: ${bodies(cases)}. Paging: ${pagingsOf(cases).join(', ') || 'one page'}.${documentedNames(cases)}`;

const schemasOf = (cases: ObservedCase[]): unknown[] => answersOf(cases).map(({ seen }) => seen.schema);

/** Refusals grouped by status, media type and body shape, with the kinds of request that met them. */
function refusals(contract: ObservedContract): string | undefined {
  const groups = new Map<string, string[]>();
  for (const { observed, status, seen } of answersOf(contract.cases)) {
    if (!/^[45]/.test(status)) continue;
    const key = `${status} ${mediaOf(seen)} \`${seen.schema ? shapeOf(seen.schema) : 'no body'}\``;
    groups.set(key, [...(groups.get(key) ?? []), `${observed.operation} "${observed.purpose}" ×${seen.count}`]);
  }
  return groups.size === 0 ? undefined : [...groups].map(([key, kinds]) => `${key} (${kinds.join(', ')})`).join('; ');
}

/** What the reads of the waits for a new person answered before one saw it. */
function notYet(c: ObservedContract): string | undefined {
  const early = c.earlyReads.create;
  if (!early || early.waits === 0) return undefined;
  if (early.reads === 0)
    return `Every one of ${early.waits} waits for a new person saw it at its first read: no early read was made.`;
  const reads = of(c, /^op3 .*create shows/);
  const described = Object.entries(early.statuses).map(([status, count]) => {
    // A 2xx early read shares its status with the read that held: only a refusal's body is the early reads' own.
    if (status.startsWith('2'))
      return `${status} in ${count} of ${early.reads} early reads (a record not yet showing the write)`;
    const seen = reads.map((observed) => observed.statuses[status]).find(Boolean);
    const body = seen?.schema ? `; body \`${shapeOf(seen.schema)}\` (${mediaOf(seen)})` : '';
    return `${status} in ${count} of ${early.reads} early reads${body}`;
  });
  return (
    `${described.join('; ')}. (evidence: the reads made before the person was seen, in ${early.waits} waits for ` +
    'a new person)'
  );
}

const ANSWERS: Record<string, Answer> = {
  'person-fields': about(
    /^op1 /,
    (cases) =>
      `Not probed field by field: the suite writes complete persons. Operation 1 answered ${statusLine(cases)}.`,
  ),
  'consumer-fields': about(/^op6 list consumers$/, (cases) => {
    const items = schemasOf(cases).flatMap((schema) => {
      const list = [...schemasIn(schema)].find(
        (inner) => inner.type === 'array' && (inner.items as Schema)?.properties,
      );
      return list ? [`\`${shapeOf(list.items)}\``] : [];
    });
    return `A listed consumer: ${[...new Set(items)].join('; ') || 'no list item seen'}.`;
  }),
  'company-screening-request': about(
    /^op9 /,
    (cases) =>
      'Not probed field by field: the requests the suite builds (support/verbs/screening.ts) were answered ' +
      `${statusLine(cases)}.`,
  ),
  'screening-response': about(/^op[89] /, (cases) => `Body: ${bodies(cases)}.`),
  'consumer-states': about(/^op6 list consumers$/, (cases) => {
    const choices = schemasOf(cases).flatMap((schema) => [...schemasIn(schema)].map((inner) => inner.enum ?? []));
    const states = new Set(choices.filter((values) => values.includes('IDENTIFIED')).flat());
    return `States seen: ${[...states].join(', ') || 'none besides IDENTIFIED'}.${documentedNames(cases)}`;
  }),
  'op1-response': about(/^op1 write person$/, response),
  'op2-response': about(/^op2 /, response),
  'op3-shape': about(/^op3 /, (cases) => `Record: ${bodies(cases)}.${documentedNames(cases)}`),
  'op3-not-yet': notYet,
  'op4-response': about(/^op4 /, response),
  'op5-response': about(/^op5 upload consumers$/, response),
  'op6-response': about(/^op6 /, list),
  'op7-response': about(/^op7 /, list),
  'op9-path': about(
    /^op9 /,
    (cases) =>
      `${cases[0]!.method} ${cases[0]!.path} (configured as CONTRACT_COMPANY_SCREENING_PATH): ${statusLine(cases)}.`,
  ),
  'token-lifetime': (c) =>
    c.tokenLifetimesS.length
      ? `expires_in: ${c.tokenLifetimesS.join(', ')} s. Body: ` +
        `${bodies(of(c, /^token /))}.${documentedNames(of(c, /^token /))}`
      : undefined,
  'screening-auth': about(
    /^op[89] /,
    (cases) =>
      `Screening answered ${statusLine(cases)} to requests carrying the bearer token of the token request (the ` +
      'same as operations 1–7). The production token address is not observable: the suite never calls ' +
      'production.',
  ),
  errors: refusals,
  limits: (c) => {
    const limited = answersOf(c.cases)
      .filter(({ status }) => ['413', '429', '503'].includes(status))
      .map(({ observed, status, seen }) => {
        const retryAfter = seen.headers['retry-after']?.join(', ');
        return `${observed.operation} ${status} ×${seen.count}${retryAfter ? ` (Retry-After ${retryAfter})` : ''}`;
      });
    return limited.length ? limited.join('; ') : 'No 413, 429 or 503 was answered in this run: no limit was met.';
  },
  'availability-delay': ({ timings: { create } }) =>
    create &&
    `Creation: p50 ${between(create.p50)}, p95 ${between(create.p95)}, max ${between(create.max)} over ${create.n} ` +
      'persons (after the last read that did not show the person, by the first that did).',
  deprecation: (c) => {
    const announced = answersOf(c.cases).flatMap(({ observed, seen }) =>
      ['deprecation', 'sunset']
        .filter((name) => seen.headers[name])
        .map((name) => `${observed.operation} ${name}: ${seen.headers[name]!.join(', ')}`),
    );
    if (c.cases.length === 0) return undefined;
    return [...new Set(announced)].join('; ') || 'No Deprecation or Sunset header was answered in this run.';
  },
};

/** An interval as the page shows it: "1000–1512 ms". */
const between = ({ afterMs, byMs }: Interval): string => `${afterMs}–${byMs} ms`;

/** The items of docs/not-shown.json with neither an answer nor the reason there can be none. */
export const unanswerable = (): string[] =>
  NOT_SHOWN.filter((item) => !item.unobservable && !ANSWERS[item.id]).map((item) => item.id);

/** Text as one Markdown table cell: pipes escaped, on one line. */
export const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Time to consistency per transition as the lines of a Markdown table, each figure an interval; none unmeasured. */
export function timingsTable(timings: Record<string, Timing>): string[] {
  const rows = Object.entries(timings).map(
    ([transition, t]) => `| ${transition} | ${t.n} | ${between(t.p50)} | ${between(t.p95)} | ${between(t.max)} |`,
  );
  return rows.length ? ['| transition | n | p50 | p95 | max |', '|---|---|---|---|---|', ...rows] : [];
}

/** Per list what its reads cost, as the lines of a Markdown table; none when no list was read. */
export function listsTable(lists: ListCost[], requests: number): string[] {
  const rows = lists.map(
    (list) =>
      `| ${list.operation} "${list.purpose}" | ${list.reads} | ${list.wholeReads} | ${list.pages} | ` +
      `${list.longestWholeRead} | ${list.fullestPage} | ${list.requests} of ${requests} |`,
  );
  const head = '| list | reads | to the end | pages | longest read to the end | most records a page | requests |';
  return rows.length ? [head, '|---|---|---|---|---|---|---|', ...rows] : [];
}

const INTRO =
  'What this run saw the target do wherever the documentation says "not shown". Everything here was observed, ' +
  'not documented; `openapi.json` beside this page holds the same as an OpenAPI 3.1 document.';

export function renderObservedPage(contract: ObservedContract, changes: string[] | undefined): string {
  const rows = NOT_SHOWN.map((item) => {
    const answer = item.unobservable
      ? `Not observable: ${item.unobservable}.`
      : (ANSWERS[item.id]?.(contract) ?? 'Not observed in this run.');
    return `| ${item.where} | "${cell(item.quote)}"${item.topic ? ` (${item.topic})` : ''} | ${cell(answer)} |`;
  });
  const changed =
    changes === undefined
      ? 'No earlier run is kept in the history: nothing to compare with.'
      : changes.map((change) => `- ${change}`).join('\n') || 'Nothing observed changed.';
  return `# The API as observed

${INTRO}

| where | the documentation says | observed |
|---|---|---|
${rows.join('\n')}

## Time to consistency

From the acknowledged write, each figure an interval: the effect came after the last read that did not see it
and by the first read that did.

${timingsTable(contract.timings).join('\n') || 'No transition was awaited in this run.'}

## Lists

What reading each list cost: a list that grows every night costs a page more for each page's worth of records
(\`CONTRACT_PAGE_SIZE\` asks for larger pages). Requests count refused and retried ones, out of the run's every
request.

${listsTable(contract.lists, contract.requests).join('\n') || 'No list was read in this run.'}

## Since the last run

${changed}
`;
}
