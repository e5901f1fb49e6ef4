// The contract run's speed rests on one worker running every spec file at once
// (support/run/concurrent-files.js, which leans on how vitest calls its runner). Should a vitest
// upgrade make it run them one after another, the run would still pass, only several times slower:
// this says so. Every file starts before the first one ends (an order, not a duration).
import { expect, test } from 'vitest';
import { runVitestWithResults } from '../../support/run/child-runs.js';

test('the contract worker runs every spec file at once', async () => {
  const { code, output, results } = await runVitestWithResults(['--project', 'contract', 'specs/persons', 'specs/screening'], {
    ...process.env,
    CONTRACT_BASE_URL: '',
  });
  expect(code, output.slice(-3000)).toBe(0);
  const files = results?.testResults ?? [];
  expect(files.length, 'spec files run').toBeGreaterThan(10);
  const firstEnd = Math.min(...files.map((file) => file.endTime));
  const startedLate = files.filter((file) => file.startTime > firstEnd).map((file) => file.name);
  expect(startedLate, 'files started only after another had ended').toEqual([]);
});
