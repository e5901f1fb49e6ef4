// Real processes: `npm run contract`, a README command, and its console as a new user sees it.
// The run a new user makes against a simulator whose deregistration is broken, its console read as
// a reader reads it: the run fails; the failure names the rule, the Then step that broke it,
// `deregistered` and what the last record showed of it; the trace points at the spec's line, never
// into support/; the summary starts with the promise not kept, lists only the category that holds
// the failure, and cuts its line at a word.
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from 'vitest';
import { runContract } from './commands.js';
import { ownReports } from './own-reports.js';
import { joinedPattern } from '../patterns.js';

test('a broken deregistration reads as a promise not kept, at the spec line, with what was seen', async (context) => {
  const { code, output: raw } = await runContract(['specs/persons/deregister.spec.ts'], {
    ...process.env,
    CONTRACT_BASE_URL: '',
    SIMULATOR_MUTANT: 'deregistered-dropped',
    SIMULATOR_AVAILABILITY_DELAY_MS: '40',
    CONTRACT_AVAILABILITY_TIMEOUT_MS: '4000',
    ...ownReports(context).env,
  });
  const output = stripVTControlCharacters(raw);
  expect(code, output).not.toBe(0);
  expect(output).toMatch(
    joinedPattern(
      /Broken rule transition\.deregister \(.*\): Then "the person itself is eventually shown deregistered": /,
      /Not shown within 4(\.\d)? s: person \S+ \(id \S+\) to be marked deregistered; \$\.deregistered = false \(\d/,
    ),
  );
  expect(output).toMatch(/^ ❯ specs\/persons\/deregister\.spec\.ts:\d+:\d+$/m);
  expect(output, 'a stack frame of support/').not.toMatch(/❯ .*support\//);

  const summary = output.slice(output.indexOf('Contract run: ')).split('\n');
  expect(summary[0]).toBe('Contract run: 1 documented promise(s) not kept: transition.deregister');
  const categories = summary.filter((line) => /^ {2}[A-Z]/.test(line));
  expect(categories).toEqual(['  Not consistent within the deadline  1']);
  const failure = summary.find((line) => line.includes('✗ [transition.deregister]'));
  expect(failure).toMatch(
    / — Broken: Then "the person itself is eventually shown deregistered": Not shown within 4(\.\d)? s: .*[\w)"]…$/,
  );
});
