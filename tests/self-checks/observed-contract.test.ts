// The observed contract tells the truth: a run against each simulator layout, whose behaviour is
// known (simulator/README.md), documents that behaviour: statuses, paging convention, the status of
// an early read, the token lifetime, and delays within ±30 % of the configured one. Its OpenAPI
// document validates, dereferences, every schema in it compiles, and a mock server (openapi-backend)
// loads it and mocks an observed answer for every operation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dereference, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OpenAPIBackend } from 'openapi-backend';
import { catalogue } from '../../support/run/catalogue.js';
import { afterEach, expect, test } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../simulator/listen.js';
import type { ObservedContract } from '../../support/evidence/observed/model.js';
import { runContract } from '../../support/run/child-runs.js';
import { OBSERVED_DIR } from '../../support/run/paths.js';
import { simulatorAsRemoteTarget } from '../../support/run/simulator-target.js';

const DELAY_MS = 500;

let simulator: RunningSimulator | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

const statusesOf = (openapi: Record<string, unknown>, path: string, method: string): string[] =>
  Object.keys(((openapi.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[path]?.[method]?.responses) ?? {});

test.each([
  { layout: 'standard' as const, written: ['200'], deleted: '202', paging: 'next link' },
  { layout: 'alternate' as const, written: ['200', '201'], deleted: '204', paging: 'Link header' },
])('documents what the $layout layout does', async ({ layout, written, deleted, paging }) => {
  simulator = await startSimulator({ layout, availabilityDelayMs: DELAY_MS, pageSize: 5, backgroundRecords: 20 });
  const run = await runContract([], { ...process.env, ...simulatorAsRemoteTarget(simulator) });
  expect(run.code, run.output.slice(-2000)).toBe(0);

  const openapiText = readFileSync(join(OBSERVED_DIR, 'openapi.json'), 'utf8');
  const openapi = JSON.parse(openapiText) as Record<string, unknown>;
  const timings = JSON.parse(readFileSync(join(OBSERVED_DIR, 'timings.json'), 'utf8')) as ObservedContract['timings'];
  const page = readFileSync(join(OBSERVED_DIR, 'observed-contract.md'), 'utf8');
  console.log(`observed (${layout}): create p50 ${timings.create?.p50Ms} ms for a ${DELAY_MS} ms delay; ${Object.keys(timings).length} transitions`);

  expect(await validate(JSON.parse(openapiText))).toMatchObject({ valid: true });
  const dereferenced = (await dereference(JSON.parse(openapiText))) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };
  const ajv = new Ajv2020({ strict: false });
  for (const operations of Object.values(dereferenced.paths)) {
    for (const { responses } of Object.values(operations)) {
      for (const response of Object.values(responses)) for (const media of Object.values(response.content ?? {})) expect(() => ajv.compile(media.schema)).not.toThrow();
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

  expect(statusesOf(openapi, '/consumer-intelligence/sandbox/v1/persons', 'put')).toEqual(expect.arrayContaining(written));
  expect(statusesOf(openapi, '/consumer-intelligence/sandbox/v1/persons', 'delete')).toContain(deleted);
  expect(page).toMatch(/\| Endpoints, operation 3 \| "the status returned while the person is not yet available: not shown\." \| 404 in \d+ of \d+ early reads/);
  expect(page).toContain(`Paging: ${paging}`);
  expect(openapi['x-token-lifetime-seconds']).toEqual([3600]);
  for (const transition of ['create', 'update', 'merge', 'remove', 'delete', 'relationship-death', 'relationship-deregistration', 'identification']) {
    expect(timings[transition], `time to consistency of ${transition}`).toBeDefined();
  }
  // The simulator jitters each effect ±50 % around its delay: the median is the delay.
  expect(timings.create!.p50Ms).toBeGreaterThanOrEqual(DELAY_MS * 0.7);
  expect(timings.create!.p50Ms).toBeLessThanOrEqual(DELAY_MS * 1.3);
});
