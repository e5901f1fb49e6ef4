// The observed contract from recorded lines: schema inference, the model, the OpenAPI document
// (validated by @readme/openapi-parser), the page's answer to every "not shown", and the history.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { readSettings } from '../../support/run/config.js';
import { describe, expect, it } from 'vitest';
import { changesSince, keepContract, keptContracts, trendChart } from '../../support/evidence/observed/history.js';
import {
  buildContract,
  inferSchema,
  mergeSchemas,
  pathsOf,
  readObservationLines,
  type ObservedContract,
} from '../../support/evidence/observed/model.js';
import { observedOpenApi } from '../../support/evidence/observed/openapi.js';
import { NOT_SHOWN, renderObservedPage, unanswerable } from '../../support/evidence/observed/page.js';
import { catalogue } from '../../support/run/catalogue.js';
import { recordObservations, type ObservationLine } from '../../support/evidence/observed/recorder.js';
import { eventually } from '../../support/readings/eventually.js';
import { readPages } from '../../support/readings/list-reader.js';
import type { ApiClient, ApiResponse } from '../../support/transport/http.js';
import { fakeClock } from './local-server.js';

// The documented paths: what every path is when no CONTRACT_*_PATH is set.
const DEFAULT_PATHS = readSettings({}, '/nonexistent').paths;

const root = resolve(import.meta.dirname, '../..');

const exchange = (
  operation: string,
  purpose: string,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): ObservationLine => ({
  kind: 'exchange',
  operation,
  purpose,
  method: 'GET',
  path: '/p',
  status,
  headers,
  requestIdHeaders: [],
  ...(body === undefined ? {} : { body }),
});

const lines: ObservationLine[] = [
  exchange('token', 'Request token', 200, { access_token: '[REDACTED]', token_type: 'Bearer', expires_in: 3600 }),
  exchange('op1', 'write person', 201, { data: { gedi: 'g1', clientReference: 'p1' } }),
  exchange('op3', 'read until the create shows', 404, { error: { code: 'not_found', message: 'x' } }),
  exchange('op3', 'read until the create shows', 404, { error: { code: 'not_found', message: 'y' } }),
  exchange('op3', 'read until the create shows', 200, { data: { gedi: 'g1', status: 'ACTIVE' } }),
  exchange(
    'op2',
    'delete person',
    404,
    { type: 'about:blank', title: 'Not Found', status: 404 },
    { 'content-type': 'application/problem+json' },
  ),
  exchange(
    'op7',
    'list subscribed persons',
    200,
    { data: [{ gedi: 'g1' }] },
    {
      link: '<https://sandbox.example/v3/subscriptions/persons?cursor=c2>; rel="next"',
      'content-type': 'application/json',
    },
  ),
  exchange('op6', 'list consumers', 200, {
    content: [
      { consumerId: 'c1', state: 'IDENTIFIED' },
      { consumerId: 'c2', state: 'PENDING' },
      { consumerId: 'c3', state: 'IDENTIFIED' },
    ],
    page: { number: 0, size: 3, totalElements: 7, totalPages: 3 },
  }),
  { kind: 'wait', transition: 'create', seenByMs: 300, notYetAfterMs: 100, notYetStatuses: [404] },
  { kind: 'wait', transition: 'create', seenByMs: 500, notYetAfterMs: 250, notYetStatuses: [404] },
  { kind: 'wait', transition: 'create', seenByMs: 400, notYetStatuses: [] },
  { kind: 'wait', transition: 'delete', notYetStatuses: [200, 200] },
];

describe('schema inference', () => {
  it('requires the keys present in every sample and keeps small string sets as enums', () => {
    const schema = inferSchema([
      { id: 'a', state: 'IDENTIFIED', n: 1 },
      { id: 'b', state: 'PENDING' },
      { id: 'c', state: 'IDENTIFIED', n: 2.5 },
    ]);
    expect(schema).toMatchObject({
      type: 'object',
      required: ['id', 'state'],
      properties: { state: { type: 'string', enum: ['IDENTIFIED', 'PENDING'] }, n: { type: 'number' } },
    });
    expect((schema?.properties as Record<string, { enum?: unknown }>).id?.enum).toBeUndefined();
  });

  it('merges schemas inferred apart into one both kinds of sample satisfy', () => {
    const merged = mergeSchemas(
      inferSchema([{ gedi: 'g', n: 1 }])!,
      inferSchema([{ gedi: 'h', n: 1.5, extra: true }])!,
    );
    expect(merged).toEqual({
      type: 'object',
      required: ['gedi', 'n'],
      properties: { gedi: { type: 'string' }, n: { type: 'number' }, extra: { type: 'boolean' } },
    });
    expect(mergeSchemas(inferSchema(['IDENTIFIED', 'IDENTIFIED'])!, inferSchema(['PENDING', 'PENDING'])!)).toEqual({
      type: 'string',
      enum: ['IDENTIFIED', 'PENDING'],
    });
    expect(mergeSchemas(inferSchema(['IDENTIFIED', 'IDENTIFIED'])!, inferSchema(['a free text'])!)).toEqual({
      type: 'string',
    });
  });

  it('finds where a documented value sits, list indexes generalised', () => {
    expect(pathsOf([{ content: [{ state: 'IDENTIFIED' }] }], (_key, value) => value === 'IDENTIFIED')).toEqual([
      '$.content[*].state',
    ]);
  });
});

describe('the observed contract', () => {
  const contract = buildContract(lines);

  it('counts statuses per operation and kind of request, and measures time to consistency as intervals', () => {
    const early = contract.cases.find((observed) => observed.operation === 'op3')!;
    expect(early.statuses['404']?.count).toBe(2);
    expect(early.statuses['404']?.schema).toMatchObject({ properties: { error: { required: ['code', 'message'] } } });
    expect(contract.cases.find((observed) => observed.operation === 'op1')?.documentedValues.gedi).toEqual([
      '$.data.gedi',
    ]);
    expect(contract.cases.find((observed) => observed.operation === 'op6')).toMatchObject({
      paging: 'page number',
      documentedValues: { IDENTIFIED: ['$.content[*].state'] },
    });
    expect(contract.tokenLifetimesS).toEqual([3600]);
    expect(contract.timings, 'a wait that never saw its effect has no time to consistency').toEqual({
      create: {
        n: 3,
        p50: { afterMs: 100, byMs: 400 },
        p95: { afterMs: 250, byMs: 500 },
        max: { afterMs: 250, byMs: 500 },
      },
    });
    expect(contract.earlyReads).toEqual({
      create: { waits: 3, reads: 2, statuses: { '404': 2 } },
      delete: { waits: 1, reads: 2, statuses: { '200': 2 } },
    });
    expect(contract.cases.find((observed) => observed.operation === 'op7')?.paging).toBe('Link header');
    // Each bound's percentile apart: the effects' own percentile lies between them, whichever effect it is.
    const waits = [
      [undefined, 1],
      [1, 2],
      [0, 3],
      [3, 4],
      [2, 100],
    ].map(([notYetAfterMs, seenByMs]): ObservationLine => ({
      kind: 'wait',
      transition: 'update',
      seenByMs,
      notYetAfterMs,
      notYetStatuses: [],
    }));
    expect(buildContract(waits).timings.update).toEqual({
      n: 5,
      p50: { afterMs: 1, byMs: 3 },
      p95: { afterMs: 3, byMs: 100 },
      max: { afterMs: 3, byMs: 100 },
    });
  });

  it('records a wait from the sending of its last read that missed to the answer of its first hit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'observed-'));
    const stop = recordObservations(dir);
    const clock = fakeClock();
    const statuses = [404, 200];
    // Each read takes 10 ms: sent after the first look at 1,500 ms and missing, then at 2,265 ms and answered at 2,275.
    const read = async () => {
      clock.advance(10);
      return { status: statuses.shift()!, ok: statuses.length === 0, headers: {} } as ApiResponse;
    };
    try {
      await eventually('a new person', read, (response) => response.ok, {
        timeoutMs: 5_000,
        clock,
        transition: 'create',
      });
    } finally {
      stop();
    }
    expect(buildContract(readObservationLines(dir)).timings.create).toEqual({
      n: 1,
      p50: { afterMs: 1500, byMs: 2275 },
      p95: { afterMs: 1500, byMs: 2275 },
      max: { afterMs: 1500, byMs: 2275 },
    });
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const document = observedOpenApi(contract, join(root, 'schemas'), DEFAULT_PATHS);
    const result = await validate(JSON.parse(JSON.stringify(document)));
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(document).toMatchObject({
      openapi: '3.1.0',
      'x-time-to-consistency': { create: { n: 3 } },
      'x-early-reads': { create: { statuses: { '404': 2 } } },
      components: { securitySchemes: { clientCredentials: { type: 'oauth2' } } },
    });
    const paths = document.paths as Record<
      string,
      Record<
        string,
        {
          responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
          'x-documented-values'?: unknown;
        }
      >
    >;
    expect(
      Object.keys(paths['/consumer-intelligence/sandbox/v1/persons']!.delete!.responses['404']!.content!),
      'the media type the target named',
    ).toEqual(['application/problem+json']);
    expect(paths['/consumer-intelligence/v3/subscriptions/persons']!.get!.responses['200']!.headers).toHaveProperty(
      'Link',
    );
    expect(paths['/consumer-intelligence/sandbox/v1/persons']!.put!['x-documented-values']).toEqual({
      gedi: ['$.data.gedi'],
    });
  });

  it('answers every "not shown" it observed on the page, and says which it could not', () => {
    const page = renderObservedPage(contract, undefined);
    expect(page).toContain('404 in 2 of 2 early reads; body `{error:{code,message}}`');
    expect(page).toContain('gedi at `$.data.gedi`');
    expect(page).toContain('404 application/problem+json `{type,title,status}` (op2 "delete person" ×1)');
    expect(page).toContain('| Events | "Events: not shown." | Not observable: ');
    expect(page).toContain('expires_in: 3600 s');
    expect(page).toContain('Creation: p50 100–400 ms, p95 250–500 ms, max 250–500 ms over 3 persons');
    expect(page).toContain('| create | 3 | 100–400 ms | 250–500 ms | 250–500 ms |');
    const answers = page
      .split('\n')
      .filter((line) =>
        NOT_SHOWN.some((item) => line.startsWith(`| ${item.where} | "${item.quote.replace(/\|/g, '\\|')}"`)),
      );
    expect(answers).toHaveLength(NOT_SHOWN.length);
    expect(page).toContain('| Endpoints, operation 9 | "Path and method: not shown." | Not observed in this run. |');
  });

  it('has an answer, or the reason there can be none, for every item of docs/not-shown.json', () => {
    expect(unanswerable()).toEqual([]);
    expect(new Set(NOT_SHOWN.map((item) => item.id)).size).toBe(NOT_SHOWN.length);
  });

  const documentationFile = resolve(root, catalogue.documentation);
  it.skipIf(!existsSync(documentationFile))(
    `lists every "not shown" of the documentation in docs/not-shown.json, verbatim (reads ${catalogue.documentation})`,
    () => {
      const sentences = readFileSync(documentationFile, 'utf8')
        .split('\n')
        .flatMap((line) => line.split('|'))
        .flatMap((text) => text.trim().split(/(?<=\.)\s+/))
        .filter((sentence) => sentence.includes('not shown'));
      expect(
        sentences.filter((sentence) => !NOT_SHOWN.some((item) => item.quote === sentence)),
        'not shown in the documentation, missing from docs/not-shown.json',
      ).toEqual([]);
      expect(
        NOT_SHOWN.filter((item) => !sentences.includes(item.quote)).map((item) => item.id),
        'quotes the documentation does not contain',
      ).toEqual([]);
    },
  );

  it('says what changed since the last run, and keeps a bounded history with a trend chart', () => {
    const later: ObservedContract = {
      ...contract,
      cases: contract.cases.map((observed) =>
        observed.operation === 'op1' ? { ...observed, statuses: { '200': observed.statuses['201']! } } : observed,
      ),
      tokenLifetimesS: [20],
    };
    expect(changesSince(contract, later)).toEqual([
      'op1 "write person": statuses 201 → 200',
      'token lifetime 3600 s → 20 s',
    ]);
    const availableAtOnce: ObservedContract = {
      ...contract,
      earlyReads: { ...contract.earlyReads, create: { waits: 3, reads: 1, statuses: { '200': 1 } } },
    };
    expect(changesSince(contract, availableAtOnce)).toEqual(['reads before the create showed: 404 → 200']);
    const { earlyReads: _unkept, ...keptBeforeEarlyReads } = contract;
    expect(
      changesSince(keptBeforeEarlyReads as ObservedContract, contract),
      'a contract kept before early reads were recorded',
    ).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'observed-history-'));
    for (const at of ['2026-11-20T03:17:00.000Z', '2026-11-21T03:17:00.000Z', '2026-11-22T03:17:00.000Z'])
      keepContract(dir, { at, contract }, 2);
    expect(readdirSync(dir)).toHaveLength(2);
    const svg = trendChart(keptContracts(dir));
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('create');
  });
});

describe('what reading each list cost', () => {
  const listRead = (pages: number, records: number, complete: boolean): ObservationLine => ({
    kind: 'list read',
    operation: 'op6',
    purpose: 'list consumers',
    convention: 'cursor',
    pages,
    requests: pages,
    records,
    fullestPage: Math.min(records, 10),
    complete,
  });
  // A night whose one whole read of the consumers takes 30 pages of 10, with a refused page retried.
  const night = (longest: number): ObservationLine[] => [
    ...Array.from({ length: longest + 2 }, () => exchange('op6', 'list consumers', 200)),
    exchange('op6', 'list consumers', 429),
    exchange('op1', 'write person', 201),
    listRead(longest, longest * 10, true),
    listRead(2, 15, false),
  ];

  it('counts per list its reads, pages and requests, and the pages they would take at 100 a page', () => {
    const contract = buildContract(night(30));
    expect(contract.requests).toBe(34);
    expect(contract.lists).toEqual([
      {
        operation: 'op6',
        purpose: 'list consumers',
        reads: 2,
        wholeReads: 1,
        pages: 32,
        longestWholeRead: 30,
        fullestPage: 10,
        requests: 33,
        pagesAtAdvisedSize: 4,
      },
    ]);
    expect(renderObservedPage(contract, undefined)).toContain(
      '| op6 "list consumers" | 2 | 1 | 32 | 30 | 10 | 33 of 34 |',
    );
    expect(changesSince(buildContract(night(29)), contract)).toEqual([
      'op6 "list consumers": longest read to the end 29 page(s) → 30 page(s)',
    ]);
    const { lists: _unkept, ...keptBeforeLists } = contract;
    expect(changesSince(keptBeforeLists as ObservedContract, contract), 'a contract kept before lists').toEqual([]);
  });

  it('records what every read of a list cost, under the operation and purpose of its pages', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'observed-lists-'));
    const pages = [
      { items: [{ consumerId: 'c1' }, { consumerId: 'c2' }], nextCursor: '2' },
      { items: [{ consumerId: 'c3' }] },
    ];
    const api = {
      request: async () => {
        const body = pages.shift();
        return { ok: true, status: 200, headers: {}, body, text: JSON.stringify(body), exchanges: [{}] };
      },
    } as unknown as ApiClient;
    const stop = recordObservations(dir);
    try {
      await readPages(api, '/v3/consumers', { operation: 'op6', purpose: 'list consumers' });
    } finally {
      stop();
    }
    expect(readObservationLines(dir)).toEqual([
      {
        kind: 'list read',
        operation: 'op6',
        purpose: 'list consumers',
        convention: 'cursor',
        pages: 2,
        complete: true,
        requests: 2,
        records: 3,
        fullestPage: 2,
      },
    ]);
  });
});
