// Simulated clock: the timings it documents are exact on the clock the run shares with its simulator; every run of this
// file in one vitest process (planned-runs.ts); the canary sees `npm run contract` write it.
// The observed contract tells the truth: a run against each simulator layout, whose behaviour is
// known (simulator/README.md "The three layouts"), documents that behaviour: statuses, envelopes (where
// gedi and the consumer state sit), the error body and its media type, the paging convention, the
// status of an early read and of a deleted person, the token lifetime, and a time to consistency for
// every transition, as an interval that holds the configured delay where the effect is that delay alone
// (creation). Its OpenAPI document validates, dereferences, every schema in it compiles, and a mock
// server (openapi-backend) loads it and mocks an observed answer for every operation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dereference, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OpenAPIBackend } from 'openapi-backend';
import { catalogue } from '../../support/run/catalogue.js';
import { POLLING } from '../../support/readings/eventually.js';
import { expect, test } from 'vitest';
import type { Interval, ObservedContract } from '../../support/evidence/observed/model.js';
import { readSettings } from '../../support/run/config.js';
import { writeObservedContract } from '../../support/evidence/observed/history.js';
import { failuresIn, plannedRuns } from './planned-runs.js';

// Half a second past the first look, so that the first read misses; on the simulated clock no machine's lag moves the
// figures, which are about the delay alone.
const DELAY_MS = POLLING.firstLookMs + 500;
// No jitter: every effect comes at the delay, so each creation's interval must hold it.
const JITTER = 0;

interface ObservedOperation {
  responses: Record<string, { content?: Record<string, { schema: { required?: string[] } }> }>;
  'x-documented-values'?: Record<string, string[]>;
}

const PERSONS = '/consumer-intelligence/sandbox/v1/persons';
const PERSON = '/consumer-intelligence/v3/markets/{market}/persons/{gedi}';
const CONSUMERS = '/consumer-intelligence/v3/consumers';

const LAYOUTS = [
  {
    layout: 'standard' as const,
    written: ['200'],
    deleted: '202',
    gone: '404',
    paging: 'next link',
    gedi: '$.gedi',
    recordGedi: '$.gedi',
    state: '$.items[*].state',
    error: { media: 'application/json', required: ['error'] },
  },
  {
    layout: 'alternate' as const,
    written: ['200', '201'],
    deleted: '204',
    gone: '410',
    paging: 'Link header',
    gedi: '$.data.gedi',
    recordGedi: '$.data.gedi',
    state: '$.data[*].status',
    error: { media: 'application/problem+json', required: ['type', 'title', 'status'] },
  },
  {
    layout: 'vendor' as const,
    written: ['200', '201'],
    deleted: '204',
    gone: '404',
    paging: 'cursor',
    gedi: '$.gedi',
    recordGedi: '$.mergedInto.gedi',
    state: '$.consumers[*].state',
    error: { media: 'application/json', required: ['status', 'statusText', 'message', 'timestamp', 'subErrors'] },
  },
];

// Each run's workers record what the target did in the run's own reports folder, as under `npm run contract`.
const runs = plannedRuns(
  LAYOUTS.map(({ layout }) => ({
    name: `observed:${layout}`,
    specs: ['specs/**/*.spec.ts'],
    env: {
      CONTRACT_REPORTS: '1',
      SIMULATOR_LAYOUT: layout,
      SIMULATOR_AVAILABILITY_DELAY_MS: String(DELAY_MS),
      SIMULATOR_AVAILABILITY_JITTER: String(JITTER),
      SIMULATOR_PAGE_SIZE: '5',
      SIMULATOR_BACKGROUND_RECORDS: '20',
    },
  })),
);

test.concurrent.for(LAYOUTS)(
  'documents what the $layout layout does',
  async ({ layout, written, deleted, gone, paging, gedi, recordGedi, state, error }) => {
    const name = `observed:${layout}`;
    expect(failuresIn(await runs.filesOf(name)), `${name}: failed tests`).toEqual([]);
    const { paths } = runs.reportsOf(name);
    // What scripts/contract.ts has the report write once the run has ended.
    writeObservedContract(process.cwd(), paths, readSettings().paths, false, 1);
    const observed = paths.observed;

    const openapiText = readFileSync(join(observed, 'openapi.json'), 'utf8');
    const openapi = JSON.parse(openapiText) as Record<string, unknown>;
    const timings = JSON.parse(readFileSync(join(observed, 'timings.json'), 'utf8')) as ObservedContract['timings'];
    const page = readFileSync(join(observed, 'observed-contract.md'), 'utf8');

    expect(await validate(JSON.parse(openapiText))).toMatchObject({ valid: true });
    const dereferenced = (await dereference(JSON.parse(openapiText))) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
      >;
    };
    const ajv = new Ajv2020({ strict: false });
    for (const operations of Object.values(dereferenced.paths)) {
      for (const { responses } of Object.values(operations)) {
        for (const response of Object.values(responses))
          for (const media of Object.values(response.content ?? {}))
            expect(() => ajv.compile(media.schema)).not.toThrow();
      }
    }

    // openapi-backend validates definitions against OpenAPI 3.0 only, so it loads this 3.1 document in
    // its quick mode; what is checked is that it routes and mocks every operation from it.
    const mock = new OpenAPIBackend({ definition: JSON.parse(openapiText), quick: true });
    await mock.init();
    for (const operation of catalogue.operations) {
      const { status } = mock.mockResponseForOperation(operation.id);
      expect(Math.floor(Number(status) / 100), `the mock's answer for ${operation.id}`).toBe(2);
    }

    const operation = (path: string, method: string): ObservedOperation =>
      (openapi.paths as Record<string, Record<string, ObservedOperation>>)[path]![method]!;
    expect(Object.keys(operation(PERSONS, 'put').responses)).toEqual(expect.arrayContaining(written));
    expect(Object.keys(operation(PERSONS, 'delete').responses)).toContain(deleted);
    expect(Object.keys(operation(PERSON, 'get').responses), 'a deleted person is answered').toContain(gone);
    expect(operation(PERSONS, 'put')['x-documented-values']?.gedi, 'where operation 1 answers the gedi').toEqual([
      gedi,
    ]);
    // The vendor's v3 record carries no gedi of its own: only a merged one names the person it went into.
    expect(operation(PERSON, 'get')['x-documented-values']?.gedi, 'where operation 3 answers a gedi').toContain(
      recordGedi,
    );
    expect(operation(CONSUMERS, 'get')['x-documented-values']?.IDENTIFIED, 'where the consumer state sits').toEqual([
      state,
    ]);
    const badInput = operation(PERSONS, 'put').responses['400']!.content!;
    expect(Object.keys(badInput), 'the media type of the error body').toEqual([error.media]);
    expect(badInput[error.media]!.schema.required, 'the error body').toEqual(expect.arrayContaining(error.required));
    expect(
      (openapi['x-early-reads'] as ObservedContract['earlyReads']).create?.statuses,
      'the status while a new person is not yet available',
    ).toEqual({ '404': expect.any(Number) });
    expect(page).toMatch(/\(the status while the person is not yet available\) \| 404 in (\d+) of \1 early reads/);
    expect(page).toContain(`Paging: ${paging}`);
    expect(openapi['x-token-lifetime-seconds']).toEqual([3600]);
    for (const transition of [
      'create',
      'update',
      'merge',
      'remove',
      'delete',
      'relationship-death',
      'relationship-deregistration',
      'identification',
      'subscription',
    ]) {
      expect(timings[transition], `time to consistency of ${transition}`).toBeDefined();
    }
    // A creation is one effect, at the delay: the lower bound, a read sent before it showed, lies before the
    // delay, the upper bound, the answer of the first read that saw it, after it. How far after is the poll interval's
    // business, not a verdict here.
    const { p50 } = timings.create!;
    expect(p50.afterMs, 'the last read that did not see a new person, p50').toBeLessThanOrEqual(DELAY_MS);
    expect(p50.byMs, 'the first read that saw it, p50').toBeGreaterThanOrEqual(DELAY_MS);
    expect(page, 'the page shows the interval').toContain(`Creation: p50 ${p50.afterMs}–${p50.byMs} ms`);
    const interval = ({ afterMs, byMs }: Interval) => `${afterMs}–${byMs} ms`;
    console.log(
      `observed (${layout}): for a ${DELAY_MS} ms delay, create p50 ${interval(p50)} over ${timings.create!.n}, ` +
        `subscription (two effects) p50 ${timings.subscription && interval(timings.subscription.p50)}; ` +
        `${Object.keys(timings).length} transitions`,
    );
  },
);
