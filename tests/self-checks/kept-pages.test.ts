// Nightly runs against one sandbox: a run's glances at a list start on the page where the run before
// found its new records, instead of finding that page again by reading every page. The simulator's
// vendor layout lists oldest first, ten records a page, here after 100 background records: a run
// that knows nothing glances twice at the first page and then reads all eleven.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from 'vitest';
import { startSimulator } from '../../simulator/listen.js';
import { runContract } from '../../support/run/child-runs.js';
import { simulatorAsRemoteTarget, simulatorControl, type SimulatorRequests } from '../../support/run/simulator-target.js';
import { LEARNED_TIMES_VARIABLE } from '../../support/readings/learned-times.js';
import { ownReports } from './own-reports.js';

test('a run glances where the run before found new records, and reads a few pages of the list where that run read them all', async (context) => {
  const simulator = await startSimulator({ layout: 'vendor', backgroundRecords: 100, control: true });
  context.onTestFinished(() => simulator.close());
  const kept = join(mkdtempSync(join(tmpdir(), 'kept-pages-')), 'learned-times.json');
  const consumerPages = async () => (await simulatorControl<SimulatorRequests>(simulator, 'GET', 'requests')).counts['GET /consumer-intelligence/v3/consumers'] ?? 0;

  const identify = async () => {
    const before = await consumerPages();
    const run = await runContract(['specs/consumers/identification.spec.ts'], { ...process.env, ...simulatorAsRemoteTarget(simulator), [LEARNED_TIMES_VARIABLE]: kept, ...ownReports(context).env });
    return { code: run.code, output: stripVTControlCharacters(run.output), pages: (await consumerPages()) - before };
  };
  const first = await identify();
  const second = await identify();
  console.log(`kept pages: the first run read ${first.pages} page(s) of the consumer list, the second ${second.pages}`);

  expect(first.code, first.output).toBe(0);
  expect(second.code, second.output).toBe(0);
  expect(second.output).toMatch(/glances at \d+ list\(s\) from the pages where it found new records/);
  expect(first.pages, 'the first run found the list\'s last page by reading all eleven').toBeGreaterThanOrEqual(11);
  expect(second.pages, 'the second began on it').toBeLessThanOrEqual(first.pages / 2);
});
