// The observed contract tells the truth: a run against each simulator layout, whose behaviour is
// known (simulator/README.md "The three layouts"), documents that behaviour: statuses, envelopes (where
// gedi and the consumer state sit), the error body and its media type, the paging convention, the
// status of an early read and of a deleted person, the token lifetime, and a time to consistency for
// every transition (printed beside the configured delay: real time, so a figure, never asserted). Its
// OpenAPI document validates, dereferences, every schema in it compiles, and a mock server
// (openapi-backend) loads it and mocks an observed answer for every operation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dereference, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OpenAPIBackend } from 'openapi-backend';
import { catalogue } from '../../support/run/catalogue.js';
import { expect, test } from 'vitest';
import { startSimulator } from '../../simulator/listen.js';
import { readObservationLines, type ObservedContract } from '../../support/evidence/observed/model.js';
import { simulatorAsRemoteTarget } from '../../support/run/child-runs.js';
import { runContract } from './commands.js';
import { ownReports } from './own-reports.js';

// Long beside the lag of a loaded machine (two cores shared with the rest of npm test stamp the
// answer to a write a hundred milliseconds or more late), so the printed figure is about the delay.
const DELAY_MS = 1500;
// ±10 % rather than the simulator's default ±50 %: the median of some thirty effects then shows the
// measurement rather than the dice.
const JITTER = 0.1;

interface ObservedOperation {
  responses: Record<string, { content?: Record<string, { schema: { required?: string[] } }> }>;
  'x-documented-values'?: Record<string, string[]>;
}

const PERSONS = '/consumer-intelligence/sandbox/v1/persons';
const PERSON = '/consumer-intelligence/v3/markets/{market}/persons/{gedi}';
const CONSUMERS = '/consumer-intelligence/v3/consumers';

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

test.concurrent.for([
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
])(
  'documents what the $layout layout does',
  async ({ layout, written, deleted, gone, paging, gedi, recordGedi, state, error }, context) => {
    const simulator = await startSimulator({
      layout,
      availabilityDelayMs: DELAY_MS,
      availabilityJitter: JITTER,
      pageSize: 5,
      backgroundRecords: 20,
    });
    context.onTestFinished(() => simulator.close());
    const reports = ownReports(context);
    const run = await runContract([], { ...process.env, ...simulatorAsRemoteTarget(simulator), ...reports.env });
    const observed = reports.paths.observed;
    expect(run.code, run.output.slice(-2000)).toBe(0);

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
    // The simulator jitters each effect around its delay: the median is the delay. The time to
    // consistency is when a read first saw the effect, later than the effect by the polling lag and
    // any latency of a loaded machine; the effect came after the last read that did not yet see it,
    // so the middle of the two estimates the effect itself. Every transition but the subscription is
    // one effect; with one or two samples of most of them, their median is taken together (creations
    // are most of it); a wait whose first read saw it says only that the effect came before. A
    // subscription follows identification after effects of its own. How close these come to the
    // delay depends on the machine's load as much as on the measurement: printed, not asserted.
    const effects = readObservationLines(observed).flatMap((line) =>
      line.kind === 'wait' &&
      line.transition !== 'subscription' &&
      line.consistentAfterMs !== undefined &&
      line.notYetAfterMs !== undefined
        ? [(line.consistentAfterMs + line.notYetAfterMs) / 2]
        : [],
    );
    const off = (ms: number) => `${ms} ms (${Math.round((100 * (ms - DELAY_MS)) / DELAY_MS)} % off)`;
    console.log(
      `observed (${layout}): for a ${DELAY_MS} ms delay, create p50 ${timings.create?.p50Ms} ms, ` +
        `effects of ${effects.length} single-effect transitions at a median ${off(median(effects))}, ` +
        `subscription p50 ${timings.subscription?.p50Ms} ms; ${Object.keys(timings).length} transitions`,
    );
  },
);
