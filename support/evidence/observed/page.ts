// Owns the page a person reads: for every "not shown" of the documentation (docs/not-shown.json),
// quoted, what this target did and the evidence (kind of request, how many samples), what the run
// could not observe and why, where the documented names sit, and what changed since the last run.
import { readFileSync } from 'node:fs';
import type { ObservedCase, ObservedContract, StatusObservation, Timing } from './model.js';

export interface NotShownItem {
  id: string;
  /** Where the documentation says it. */
  where: string;
  /** The documentation's sentence, verbatim. */
  quote: string;
  /** Which part of the sentence this item answers, when it names several things. */
  topic?: string;
  /** Why no run can observe it. */
  unobservable?: string;
}

export const NOT_SHOWN: NotShownItem[] = (
  JSON.parse(readFileSync(new URL('../../../docs/not-shown.json', import.meta.url), 'utf8')) as {
    items: NotShownItem[];
  }
).items;

type Answer = (contract: ObservedContract) => string | undefined;

function shapeOf(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 2) return '…';
  const { type, properties, items } = schema as {
    type?: unknown;
    properties?: Record<string, unknown>;
    items?: unknown;
  };
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

/** The media type the target named, without parameters (`application/problem+json`). */
const mediaOf = (seen: StatusObservation): string =>
  [...new Set((seen.headers['content-type'] ?? []).map((value) => value.split(';')[0]!.trim()))].join(' or ') ||
  'no Content-Type';

const of = (contract: ObservedContract, operation: string, purpose?: RegExp): ObservedCase[] =>
  contract.cases.filter((observed) => observed.operation === operation && (!purpose || purpose.test(observed.purpose)));

function statusLine(cases: ObservedCase[]): string {
  const counts = new Map<string, number>();
  for (const observed of cases)
    for (const [status, seen] of Object.entries(observed.statuses))
      counts.set(status, (counts.get(status) ?? 0) + seen.count);
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  return [...counts].map(([status, count]) => `${status} in ${count} of ${total}`).join(', ');
}

function bodies(cases: ObservedCase[]): string {
  const shapes = new Set<string>();
  for (const observed of cases) {
    for (const [status, seen] of Object.entries(observed.statuses))
      if (status.startsWith('2') && seen.schema) shapes.add(`${status} \`${shapeOf(seen.schema)}\``);
  }
  return shapes.size ? [...shapes].join('; ') : 'no body';
}

/** Where the documented names (gedi, IDENTIFIED, ...) were found in the accepted answers. */
function documentedNames(cases: ObservedCase[]): string {
  const found = new Map<string, Set<string>>();
  for (const observed of cases)
    for (const [name, paths] of Object.entries(observed.documentedValues))
      paths.forEach((path) => found.set(name, (found.get(name) ?? new Set()).add(path)));
  const places = [...found].map(([name, paths]) => `${name} at ${[...paths].map((path) => `\`${path}\``).join(', ')}`);
  return found.size ? ` ${places.join('; ')}.` : '';
}

function paging(cases: ObservedCase[]): string {
  return [...new Set(cases.map((observed) => observed.paging).filter(Boolean))].join(', ') || 'one page';
}

const evidence = (cases: ObservedCase[]): string =>
  cases.map((observed) => `"${observed.purpose}" ×${observed.samples}`).join(', ');

function answered(cases: ObservedCase[], say: (cases: ObservedCase[]) => string): string | undefined {
  return cases.length === 0 ? undefined : `${say(cases)} (evidence: ${evidence(cases)})`;
}

const response =
  (operation: string, purpose?: RegExp): Answer =>
  (c) =>
    answered(
      of(c, operation, purpose),
      (cases) => `Statuses: ${statusLine(cases)}. Body: ${bodies(cases)}.${documentedNames(cases)}`,
    );

/** The list item of the first list in a schema (a consumer, a subscribed person). */
function listItem(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  const { type, items, properties } = schema as {
    type?: unknown;
    items?: unknown;
    properties?: Record<string, unknown>;
  };
  if (type === 'array' && items && typeof items === 'object' && 'properties' in items) return items;
  for (const inner of Object.values(properties ?? {})) {
    const found = listItem(inner);
    if (found) return found;
  }
  return undefined;
}

function consumerStates(cases: ObservedCase[]): string {
  const values = new Set<string>();
  const walk = (schema: unknown): void => {
    if (!schema || typeof schema !== 'object') return;
    const {
      enum: choices,
      properties,
      items,
    } = schema as { enum?: unknown[]; properties?: Record<string, unknown>; items?: unknown };
    if (choices?.includes('IDENTIFIED')) choices.forEach((choice) => values.add(String(choice)));
    Object.values(properties ?? {}).forEach(walk);
    walk(items);
  };
  for (const observed of cases) for (const seen of Object.values(observed.statuses)) walk(seen.schema);
  return [...values].join(', ');
}

/**
 * Refusals grouped by what they looked like: status, media type and body shape, with the kinds of request that met
 * them.
 */
function refusals(contract: ObservedContract): string | undefined {
  const groups = new Map<string, string[]>();
  for (const observed of contract.cases) {
    for (const [status, seen] of Object.entries(observed.statuses)) {
      if (!/^[45]/.test(status)) continue;
      const key = `${status} ${mediaOf(seen)} \`${seen.schema ? shapeOf(seen.schema) : 'no body'}\``;
      groups.set(key, [...(groups.get(key) ?? []), `${observed.operation} "${observed.purpose}" ×${seen.count}`]);
    }
  }
  return groups.size === 0 ? undefined : [...groups].map(([key, kinds]) => `${key} (${kinds.join(', ')})`).join('; ');
}

const ANSWERS: Record<string, Answer> = {
  'person-fields': (c) =>
    answered(
      of(c, 'op1'),
      (cases) =>
        `Not probed field by field: the suite writes complete persons. Operation 1 answered ${statusLine(cases)}.`,
    ),
  'consumer-fields': (c) =>
    answered(of(c, 'op6', /^list consumers$/), (cases) => {
      const items = new Set(
        cases.flatMap((observed) =>
          Object.values(observed.statuses)
            .map((seen) => listItem(seen.schema))
            .filter(Boolean)
            .map((item) => `\`${shapeOf(item)}\``),
        ),
      );
      return `A listed consumer: ${[...items].join('; ') || 'no list item seen'}.`;
    }),
  'company-screening-request': (c) =>
    answered(
      of(c, 'op9'),
      (cases) =>
        'Not probed field by field: the requests the suite builds (support/verbs/screening.ts) were answered ' +
        `${statusLine(cases)}.`,
    ),
  'screening-response': (c) => answered([...of(c, 'op8'), ...of(c, 'op9')], (cases) => `Body: ${bodies(cases)}.`),
  'consumer-states': (c) =>
    answered(
      of(c, 'op6', /^list consumers$/),
      (cases) => `States seen: ${consumerStates(cases) || 'none besides IDENTIFIED'}.${documentedNames(cases)}`,
    ),
  'op1-response': response('op1', /^write person$/),
  'op2-response': response('op2'),
  'op3-shape': (c) => answered(of(c, 'op3'), (cases) => `Record: ${bodies(cases)}.${documentedNames(cases)}`),
  'op3-not-yet': (c) => {
    const early = c.earlyReads.create;
    if (!early || early.waits === 0) return undefined;
    if (early.reads === 0)
      return `Every one of ${early.waits} waits for a new person saw it at its first read: no early read was made.`;
    const reads = of(c, 'op3', /create shows/);
    const described = Object.entries(early.statuses).map(([status, count]) => {
      // A 2xx read that did not hold shares its status with the read that did: only a refusal's body is the early
      // reads' own.
      const seen = status.startsWith('2')
        ? undefined
        : reads.map((observed) => observed.statuses[status]).find(Boolean);
      const body = seen?.schema
        ? `; body \`${shapeOf(seen.schema)}\` (${mediaOf(seen)})`
        : status.startsWith('2')
          ? ' (a record not yet showing the write)'
          : '';
      return `${status} in ${count} of ${early.reads} early reads${body}`;
    });
    return (
      `${described.join('; ')}. (evidence: the reads made before the person was seen, in ${early.waits} waits for ` +
      'a new person)'
    );
  },
  'op4-response': response('op4'),
  'op5-response': response('op5', /^upload consumers$/),
  'op6-response': (c) =>
    answered(of(c, 'op6'), (cases) => `Body: ${bodies(cases)}. Paging: ${paging(cases)}.${documentedNames(cases)}`),
  'op7-response': (c) =>
    answered(of(c, 'op7'), (cases) => `Body: ${bodies(cases)}. Paging: ${paging(cases)}.${documentedNames(cases)}`),
  'op9-path': (c) =>
    answered(
      of(c, 'op9'),
      (cases) =>
        `${cases[0]!.method} ${cases[0]!.path} (configured as CONTRACT_COMPANY_SCREENING_PATH): ${statusLine(cases)}.`,
    ),
  'token-lifetime': (c) =>
    c.tokenLifetimesS.length
      ? `expires_in: ${c.tokenLifetimesS.join(', ')} s. Body: ` +
        `${bodies(of(c, 'token'))}.${documentedNames(of(c, 'token'))}`
      : undefined,
  'screening-auth': (c) =>
    answered(
      [...of(c, 'op8'), ...of(c, 'op9')],
      (cases) =>
        `Screening answered ${statusLine(cases)} to requests carrying the bearer token of the token request (the ` +
        'same as operations 1–7). The production token address is not observable: the suite never calls ' +
        'production.',
    ),
  errors: refusals,
  limits: (c) => {
    const limited = c.cases.flatMap((observed) =>
      Object.entries(observed.statuses)
        .filter(([status]) => ['413', '429', '503'].includes(status))
        .map(([status, seen]) => {
          const retryAfter = seen.headers['retry-after']
            ? ` (Retry-After ${seen.headers['retry-after'].join(', ')})`
            : '';
          return `${observed.operation} ${status} ×${seen.count}${retryAfter}`;
        }),
    );
    return limited.length ? limited.join('; ') : 'No 413, 429 or 503 was answered in this run: no limit was met.';
  },
  'availability-delay': (c) =>
    c.timings.create
      ? `Creation: p50 ${c.timings.create.p50Ms} ms, p95 ${c.timings.create.p95Ms} ms, max ` +
        `${c.timings.create.maxMs} ms over ${c.timings.create.n} persons.`
      : undefined,
  deprecation: (c) => {
    const announced = c.cases.flatMap((observed) =>
      Object.values(observed.statuses).flatMap((seen) =>
        ['deprecation', 'sunset']
          .filter((name) => seen.headers[name])
          .map((name) => `${observed.operation} ${name}: ${seen.headers[name]!.join(', ')}`),
      ),
    );
    return c.cases.length === 0
      ? undefined
      : announced.length
        ? [...new Set(announced)].join('; ')
        : 'No Deprecation or Sunset header was answered in this run.';
  },
};

/**
 * The items of docs/not-shown.json that neither have an answer nor say why they cannot have one (a unit test keeps this
 * empty).
 */
export const unanswerable = (): string[] =>
  NOT_SHOWN.filter((item) => !item.unobservable && !ANSWERS[item.id]).map((item) => item.id);

/** Text as one Markdown table cell: pipes escaped, on one line. */
export const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Time to consistency per transition as the lines of a Markdown table; none when nothing was measured. */
export function timingsTable(timings: Record<string, Timing>): string[] {
  const rows = Object.entries(timings).map(
    ([transition, t]) => `| ${transition} | ${t.n} | ${t.p50Ms} | ${t.p95Ms} | ${t.maxMs} |`,
  );
  return rows.length ? ['| transition | n | p50 ms | p95 ms | max ms |', '|---|---|---|---|---|', ...rows] : [];
}

export function renderObservedPage(contract: ObservedContract, changes: string[] | undefined): string {
  const rows = NOT_SHOWN.map((item) => {
    const answer = item.unobservable
      ? `Not observable: ${item.unobservable}.`
      : (ANSWERS[item.id]?.(contract) ?? 'Not observed in this run.');
    return `| ${item.where} | "${cell(item.quote)}"${item.topic ? ` (${item.topic})` : ''} | ${cell(answer)} |`;
  });
  const timings = timingsTable(contract.timings);
  return [
    '# The API as observed',
    '',
    'What this run saw the target do wherever the documentation says "not shown". Everything here was observed, ' +
      'not documented; `openapi.json` beside this page holds the same as an OpenAPI 3.1 document.',
    '',
    '| where | the documentation says | observed |',
    '|---|---|---|',
    ...rows,
    '',
    '## Time to consistency',
    '',
    'From the acknowledged write to the first read that saw its effect.',
    '',
    ...(timings.length ? timings : ['No transition was awaited in this run.']),
    '',
    '## Since the last run',
    '',
    ...(changes === undefined
      ? ['No earlier run is kept in the history: nothing to compare with.']
      : changes.length
        ? changes.map((change) => `- ${change}`)
        : ['Nothing observed changed.']),
    '',
  ].join('\n');
}
