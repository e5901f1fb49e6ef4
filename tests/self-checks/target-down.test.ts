// Real processes: a port with nothing listening, met over a real socket, and a run that stops in global setup.
// A run against a target that is down ends in setup with one "target unavailable" message naming
// the host and the cause, filed under "Target unavailable" (not "Contract broken"), and a non-zero
// exit: nothing listening on the port. (A target that answers, but only 429 or 503 with Retry-After,
// is not down but throttling: tests/self-checks/target-throttled.test.ts.) The elapsed time is
// printed, not asserted: on a loaded machine a bound would only flake.
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from 'vitest';
import { runContract } from './commands.js';
import { ownReports } from './own-reports.js';
import { categoryCount } from './console-summary.js';
import { NOTHING_LISTENS } from '../network/nothing-listens.js';

const { port } = new URL(NOTHING_LISTENS);
// Empty values override a .env file, so only what is set here decides the target.
const cases = [
  {
    name: `nothing listening on 127.0.0.1:${port}`,
    env: {
      CONTRACT_BASE_URL: `http://127.0.0.1:${port}`,
      CONTRACT_AUTH_URL: '',
      CONTRACT_CLIENT_ID: 'target-down-client',
      CONTRACT_CLIENT_SECRET: 'target-down-secret',
      CONTRACT_SECOND_CLIENT_ID: '',
      CONTRACT_SECOND_CLIENT_SECRET: '',
      CONTRACT_SCREENING_PROVIDER: 'SANDBOX-AML',
    },
    message: new RegExp(
      `Token service unreachable \\(target unavailable\\): 127\\.0\\.0\\.1:${port} did not answer \\(refused\\)[^\\n]*`,
    ),
  },
];

test.concurrent.for(cases)(
  'a run ends in setup as "Target unavailable" when $name',
  async ({ env, message }, context) => {
    const started = performance.now();
    const { code, output: raw } = await runContract([], { ...process.env, ...env, ...ownReports(context).env });
    const output = stripVTControlCharacters(raw);
    const line = message.exec(output)?.[0];
    console.log(
      `target-down: exit ${code} after ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `${line ?? '(no target-unavailable line)'}`,
    );
    expect(code, 'the run exits non-zero').not.toBe(0);
    expect(line, `one message matching ${message}`).toBeDefined();
    expect(categoryCount(output, 'Target unavailable'), 'results filed under "Target unavailable"').toBe(1);
    expect(categoryCount(output, 'Contract broken'), 'results filed under "Contract broken"').toBe(0);
    expect(categoryCount(output, 'Configuration error'), 'results filed under "Configuration error"').toBe(0);
  },
);
