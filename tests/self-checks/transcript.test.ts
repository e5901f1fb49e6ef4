// Simulated clock: the transcript repeats from the seed, the reads of each wait at the times its schedule gives.
// docs/requests.md is what `npm run contract` sends the embedded simulator with its defaults, step by step, as the
// run's Allure results hold it (support/evidence/transcript.ts): a reader learns every request of a spec, and the
// location that decided each reading, from what a run did rather than from the code. A change that moves a request
// fails here; `npm run docs:requests` writes the new transcript, to be reviewed in the diff like a snapshot.
import { afterAll, expect, test } from 'vitest';
import { renderTranscript } from '../../support/evidence/transcript.js';
import { ownReports } from './own-reports.js';
import { failuresIn, plannedRuns } from './planned-runs.js';

const PREFACE = `
# Every request of each spec, as the embedded simulator answers it

Generated from a run of every spec against the embedded simulator with its defaults
(\`npm run contract\` with no \`CONTRACT_BASE_URL\`), on the simulated clock with \`SIMULATOR_SEED=1\`.
\`tests/self-checks/transcript.test.ts\` fails when a run sends otherwise; \`npm run docs:requests\`
writes it anew.

Each test's report steps, in order, with every attempt of every request under the step that sent it:
the token requests of a test or of a renewal, the retries (\`attempt n\`), a wait's reads
(\`attempt n after t ms\`, counted from the wait's start) and the pages of a list scan that served the
wait. An \`evidence\` line names the location in the answer that decided a reading and, in brackets,
where the layout file says it is. \`$\` is what the reading read: the answer, or the part of it where
the layout file puts a fact's records (a find's \`person.found\`, the \`results\` of its answer here). A
test's gedis are \`<uuid n>\`, numbered as they first appear. The requests of the run's setup come
first. A run over sockets on the system clock has other ids and values, and a few milliseconds more
per wait; where several tests wait on one list at once, a page shows under each test it served, and
which it served depends on timing.
`;

// The run's Allure results, which the process's reporter writes, as under `npm run contract`; its worker records the
// observations, the setup's token requests among them, in the run's own reports folder.
const reports = ownReports({ onTestFinished: (remove) => afterAll(remove) });
const runs = plannedRuns(
  [{ name: 'transcript', specs: ['specs/**/*.spec.ts'], env: { CONTRACT_REPORTS: '1', SIMULATOR_SEED: '1' } }],
  { ...reports.env, CONTRACT_REPORTS: '1' },
);

test('docs/requests.md is what a run against the embedded simulator with its defaults sends', async () => {
  expect(failuresIn(await runs.filesOf('transcript')), 'transcript: failed tests').toEqual([]);
  const { observed } = runs.reportsOf('transcript').paths;
  await expect(renderTranscript(reports.paths.allureResults, observed, PREFACE)).toMatchFileSnapshot(
    '../../docs/requests.md',
    'a run sent otherwise: `npm run docs:requests` writes it anew, to review in the diff',
  );
});
