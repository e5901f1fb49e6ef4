// Faults are drawn for the request, not for its place in the order of arrival: a seed meets the same faults however
// concurrent requests interleave, so a replayed run sends as many requests as the run it replays.
import { expect, it } from 'vitest';
import { buildSimulator } from '../../simulator/build.js';

const PATHS = Array.from({ length: 40 }, (_, index) => `/consumer-intelligence/v3/markets/SE/persons/p${index}`);

/** The status each path answered, the paths asked in `order`, each twice. */
async function statuses(order: string[]): Promise<Record<string, number[]>> {
  const { app } = buildSimulator({ seed: 7, faultRate: 0.3, backgroundRecords: 0 });
  const answers: Record<string, number[]> = {};
  for (const url of [...order, ...order]) {
    const { statusCode } = await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer unknown' } });
    (answers[url] ??= []).push(statusCode);
  }
  await app.close();
  return answers;
}

it('answers each request with the same fault, or none, whatever order the requests come in', async () => {
  const forward = await statuses(PATHS);
  const backward = await statuses([...PATHS].reverse());
  expect(backward).toEqual(forward);
  const faults = Object.values(forward)
    .flat()
    .filter((status) => status === 429 || status === 503).length;
  expect(faults, 'some requests faulted, some did not').toBeGreaterThan(0);
  expect(faults).toBeLessThan(2 * PATHS.length);
});
