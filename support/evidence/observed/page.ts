// Owns the page a person reads: for every "not shown" of the documentation, quoted, what this
// target did and the evidence (kind of request, how many samples), what the run could not observe,
// and what changed since the last run.
import type { ObservedCase, ObservedContract } from './model.js';

interface NotShown {
  /** Where the documentation says it. */
  where: string;
  quote: string;
  answer: (contract: ObservedContract) => string | undefined;
}

const statusLine = (cases: ObservedCase[]): string | undefined => {
  const counts = new Map<string, number>();
  let total = 0;
  for (const observed of cases) {
    for (const [status, seen] of Object.entries(observed.statuses)) {
      counts.set(status, (counts.get(status) ?? 0) + seen.count);
      total += seen.count;
    }
  }
  if (total === 0) return undefined;
  return [...counts].map(([status, count]) => `${status} in ${count} of ${total}`).join(', ');
};

function shapeOf(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 2) return '…';
  const { type, properties, items } = schema as { type?: unknown; properties?: Record<string, unknown>; items?: unknown };
  if (properties) return `{${Object.entries(properties).map(([key, inner]) => (inner && typeof inner === 'object' && 'properties' in inner ? `${key}:${shapeOf(inner, depth + 1)}` : key)).join(',')}}`;
  if (type === 'array') return `[${shapeOf(items, depth + 1)}]`;
  return String(type);
}

const of = (contract: ObservedContract, operation: string, purpose?: RegExp): ObservedCase[] =>
  contract.cases.filter((observed) => observed.operation === operation && (!purpose || purpose.test(observed.purpose)));

function bodies(cases: ObservedCase[], accepted: boolean): string {
  const shapes = new Set<string>();
  for (const observed of cases) {
    for (const [status, seen] of Object.entries(observed.statuses)) {
      if ((status.startsWith('2') === accepted) && seen.schema) shapes.add(`${status} \`${shapeOf(seen.schema)}\``);
    }
  }
  return shapes.size ? [...shapes].join('; ') : 'no body';
}

const evidence = (cases: ObservedCase[]): string => cases.map((observed) => `"${observed.purpose}" ×${observed.samples}`).join(', ');

function answered(cases: ObservedCase[], say: (cases: ObservedCase[]) => string): string | undefined {
  return cases.length === 0 ? undefined : `${say(cases)} (evidence: ${evidence(cases)})`;
}

/** Every "not shown" of ../shared/api-documentation.md the suite can observe, or says it cannot. */
export const NOT_SHOWN: NotShown[] = [
  { where: 'Endpoints, operation 1', quote: 'Other response content: not shown.', answer: (c) => answered(of(c, 'op1', /^write person$/), (cases) => `Statuses: ${statusLine(cases)}. Body: ${bodies(cases, true)}.`) },
  { where: 'Endpoints, operation 2', quote: 'Response: not shown.', answer: (c) => answered(of(c, 'op2'), (cases) => `Statuses: ${statusLine(cases)}. Body: ${bodies(cases, true)}.`) },
  { where: 'Endpoints, operation 3', quote: 'The person record. Its shape ... : not shown.', answer: (c) => answered(of(c, 'op3'), (cases) => `Record: ${bodies(cases, true)}.`) },
  {
    where: 'Endpoints, operation 3',
    quote: 'the status returned while the person is not yet available: not shown.',
    answer: (c) => {
      const early = of(c, 'op3', /create shows/);
      const notYet = early.flatMap((observed) => Object.entries(observed.statuses).filter(([status]) => !status.startsWith('2')).map(([status, seen]) => ({ status, seen })));
      if (early.length === 0) return undefined;
      const reads = early.reduce((sum, observed) => sum + observed.samples, 0);
      if (notYet.length === 0) return `Every read while waiting for a new person answered 2xx (${reads} reads): the person was available at once.`;
      return `${notYet.map(({ status, seen }) => `${status} in ${seen.count} of ${reads} early reads; body \`${shapeOf(seen.schema)}\``).join('; ')}.`;
    },
  },
  { where: 'Endpoints, operation 4', quote: 'Other search fields and the response shape: not shown.', answer: (c) => answered(of(c, 'op4'), (cases) => `Statuses: ${statusLine(cases)}. Body: ${bodies(cases, true)}.`) },
  { where: 'Endpoints, operation 5', quote: 'Response: not shown.', answer: (c) => answered(of(c, 'op5', /^upload consumers$/), (cases) => `Statuses: ${statusLine(cases)}. Body: ${bodies(cases, true)}.`) },
  {
    where: 'Endpoints, operation 6',
    quote: 'Parameters and response shape: not shown.',
    answer: (c) => answered(of(c, 'op6'), (cases) => `Body: ${bodies(cases, true)}. Paging: ${[...new Set(cases.map((observed) => observed.paging).filter(Boolean))].join(', ') || 'one page'}. The consumer state is at ${[...new Set(cases.flatMap((observed) => observed.documentedValues.IDENTIFIED ?? []))].join(', ') || '(IDENTIFIED not seen)'}.`),
  },
  {
    where: 'Endpoints, operation 7',
    quote: 'Parameters and response shape: not shown.',
    answer: (c) => answered(of(c, 'op7'), (cases) => `Body: ${bodies(cases, true)}. Paging: ${[...new Set(cases.map((observed) => observed.paging).filter(Boolean))].join(', ') || 'one page'}.`),
  },
  { where: 'Resources, screening request', quote: 'Fields of any screening response: not shown.', answer: (c) => answered([...of(c, 'op8'), ...of(c, 'op9')], (cases) => `Body: ${bodies(cases, true)}.`) },
  { where: 'Authentication, item 4', quote: 'Token lifetime and the other response properties of the token request: not shown.', answer: (c) => (c.tokenLifetimesS.length ? `expires_in: ${c.tokenLifetimesS.join(', ')} s. Body: ${bodies(of(c, 'token'), true)}.` : undefined) },
  {
    where: 'Errors',
    quote: 'Error codes, status codes and the error body: not shown.',
    answer: (c) => {
      const refused = c.cases.filter((observed) => Object.keys(observed.statuses).some((status) => /^[45]/.test(status)));
      return refused.length === 0 ? undefined : refused.map((observed) => `${observed.operation} "${observed.purpose}": ${bodies([observed], false)}`).join('; ');
    },
  },
  {
    where: 'Limits',
    quote: 'Rate limits, size limits, time-outs ...: not shown.',
    answer: (c) => {
      const limited = c.cases.flatMap((observed) => Object.entries(observed.statuses).filter(([status]) => status === '429' || status === '503').map(([status, seen]) => `${observed.operation} ${status} ×${seen.count}${seen.headers['retry-after'] ? ` (Retry-After ${seen.headers['retry-after'].join(', ')})` : ''}`));
      return limited.length ? limited.join('; ') : 'No 429 or 503 was answered in this run: no rate limit was met.';
    },
  },
  {
    where: 'Limits',
    quote: 'the delay until an added person becomes available: not shown.',
    answer: (c) => (c.timings.create ? `Creation: p50 ${c.timings.create.p50Ms} ms, p95 ${c.timings.create.p95Ms} ms, max ${c.timings.create.maxMs} ms over ${c.timings.create.n} persons.` : undefined),
  },
  { where: 'States and transitions', quote: 'Further consumer states and their transitions: not shown.', answer: (c) => answered(of(c, 'op6'), (cases) => `States seen: ${consumerStates(cases) || 'none besides IDENTIFIED'}.`) },
  { where: 'Endpoints, operation 9', quote: 'Path and method: not shown.', answer: (c) => answered(of(c, 'op9'), (cases) => `${cases[0]!.method} ${cases[0]!.path} (configured as CONTRACT_COMPANY_SCREENING_PATH): ${statusLine(cases)}.`) },
  { where: 'Events', quote: 'Events: not shown.', answer: () => undefined },
];

function consumerStates(cases: ObservedCase[]): string {
  const values = new Set<string>();
  const walk = (schema: unknown): void => {
    if (!schema || typeof schema !== 'object') return;
    const { enum: choices, properties, items } = schema as { enum?: unknown[]; properties?: Record<string, unknown>; items?: unknown };
    if (choices?.includes('IDENTIFIED')) choices.forEach((choice) => values.add(String(choice)));
    Object.values(properties ?? {}).forEach(walk);
    walk(items);
  };
  for (const observed of cases) for (const seen of Object.values(observed.statuses)) walk(seen.schema);
  return [...values].join(', ');
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderObservedPage(contract: ObservedContract, changes: string[] | undefined): string {
  const rows = NOT_SHOWN.map((item) => {
    const answer = item.answer(contract);
    return `| ${item.where} | "${cell(item.quote)}" | ${cell(answer ?? 'Not observed in this run.')} |`;
  });
  const timings = Object.entries(contract.timings).map(([transition, t]) => `| ${transition} | ${t.n} | ${t.p50Ms} | ${t.p95Ms} | ${t.maxMs} |`);
  return [
    '# The API as observed',
    '',
    'What this run saw the target do wherever the documentation says "not shown". Everything here was observed, not documented; `openapi.json` beside this page holds the same as an OpenAPI 3.1 document.',
    '',
    '| where | the documentation says | observed |',
    '|---|---|---|',
    ...rows,
    '',
    '## Time to consistency',
    '',
    ...(timings.length ? ['| transition | n | p50 ms | p95 ms | max ms |', '|---|---|---|---|---|', ...timings] : ['No transition was awaited in this run.']),
    '',
    '## Since the last run',
    '',
    ...(changes === undefined ? ['No earlier run is kept in the history: nothing to compare with.'] : changes.length ? changes.map((change) => `- ${change}`) : ['Nothing observed changed.']),
    '',
  ].join('\n');
}
