// Owns the fixtures a contract test may use, each declared once with its scope and its cleanup: worker scope for the
// run, the observers and the API clients; test scope for data, the domain verbs and skipping with a reason. Every one
// is automatic (`rule().test` hands a test its whole context); they cost no request until a test calls them.
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import { inject, test as base } from 'vitest';
import type { ContractConfig, Credentials } from '../run/config.js';
import { ApiClient, systemClock } from '../transport/http.js';
import { sharedPace } from '../transport/pace.js';
import { registerCredentials, TokenProvider, type IssuedToken } from '../run/tokens.js';
import { createDataFactory } from '../data/factories.js';
import { SandboxPersons } from './persons.js';
import { ConsumerData } from './consumers.js';
import { AmlScreening } from './screening.js';
import { onWait } from '../readings/eventually.js';
import { attachExchanges, attachText } from '../evidence/report.js';
import { countTestSpending } from '../evidence/test-time.js';
import { registerSecret } from '../transport/redact.js';
import { proxySettings } from '../transport/dispatcher.js';
import { recordObservations } from '../evidence/observed/recorder.js';
import { OBSERVED_DIR } from '../run/paths.js';

/** A client's calls and token renewals share one pace (support/transport/pace.ts), screening token's included. */
function clientFor(config: ContractConfig, credentials: Credentials, token: IssuedToken, scope?: string): ApiClient {
  const limits = { maxRps: config.maxRps, deadlineMs: config.availabilityTimeoutMs };
  return new ApiClient({
    baseUrl: config.baseUrl,
    addressSetting: 'CONTRACT_BASE_URL',
    requestTimeoutMs: config.requestTimeoutMs,
    deadlineMs: limits.deadlineMs,
    pace: sharedPace(new URL(config.baseUrl).origin, credentials.clientId, systemClock, config.maxRps),
    auth: { kind: 'bearer', tokens: new TokenProvider(config.authUrl, credentials, token, { ...limits, scope }) },
  });
}

/** The run global setup resolved, as this worker reads it: its secrets go to the redaction point first. */
function readRun() {
  const run = inject('contract');
  for (const credentials of [run.config.client, run.config.secondClient])
    if (credentials) registerCredentials(credentials);
  for (const token of [run.tokens.primary, run.tokens.second, run.tokens.screening]) registerSecret(token?.accessToken);
  proxySettings(); // registers the proxy's credentials, if its address has any
  return run;
}

// The test a piece of async work belongs to: the worker runs its spec files at once
// (support/run/concurrent-files.js), so vitest's own "current test" may be another file's.
const runningTest = new AsyncLocalStorage<string>();

/** Runs `body` as the work of the test titled `title` (what the wait log names). */
export function asTest<T>(title: string, body: () => Promise<T>): Promise<T> {
  return runningTest.run(title, body);
}

const WORKER = { scope: 'worker', auto: true } as const;
const TEST = { auto: true } as const;

export const test = base
  .extend('run', WORKER, readRun)
  // The one place this worker's observers subscribe: report evidence and each test's time spent always; the
  // observed-contract recording when the run writes reports; the wait log when npm run bench sets CONTRACT_WAIT_LOG.
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; it has none
  .extend('observers', WORKER, ({}, { onCleanup }) => {
    const waitLog = process.env.CONTRACT_WAIT_LOG;
    const unsubscribe = [
      attachExchanges(),
      countTestSpending(),
      process.env.CONTRACT_REPORTS === '1' ? recordObservations(OBSERVED_DIR) : undefined,
      waitLog
        ? onWait((wait) => appendFileSync(waitLog, `${JSON.stringify({ ...wait, test: runningTest.getStore() })}\n`))
        : undefined,
    ];
    onCleanup(() => unsubscribe.forEach((stop) => stop?.()));
  })
  .extend('config', WORKER, ({ run }) => run.config)
  .extend('api', WORKER, ({ run }) => clientFor(run.config, run.config.client, run.tokens.primary))
  .extend('secondApi', WORKER, ({ run }): ApiClient | undefined =>
    run.config.secondClient && run.tokens.second
      ? clientFor(run.config, run.config.secondClient, run.tokens.second)
      : undefined,
  )
  .extend('data', TEST, ({ config, task }) =>
    createDataFactory({ ...config, scope: `${task.file.name} > ${task.name}` }),
  )
  .extend('persons', TEST, async ({ api, config, data }, { onCleanup }) => {
    const persons = new SandboxPersons(api, config, data);
    onCleanup(() => persons.cleanUp());
    return persons;
  })
  // The second client's own persons (write-isolation checks), cleaned up alike; undefined without a second client.
  .extend('secondPersons', TEST, async ({ secondApi, config, data }, { onCleanup }) => {
    if (!secondApi || !config.secondClient) return undefined;
    const persons = new SandboxPersons(secondApi, { ...config, client: config.secondClient }, data);
    onCleanup(() => persons.cleanUp());
    return persons;
  })
  .extend('consumers', TEST, ({ api, config }) => new ConsumerData(api, config))
  // Screening calls carry a token of their own when CONTRACT_SCREENING_SCOPE names the vendor's screening scope.
  .extend('screeningApi', WORKER, ({ run, api }) =>
    run.tokens.screening
      ? clientFor(run.config, run.config.client, run.tokens.screening, run.config.screeningScope)
      : api,
  )
  .extend('screening', TEST, ({ screeningApi, config }) => new AmlScreening(screeningApi, config))
  // Skips the test with a reason that shows in the console and in the report, not only in a count.
  .extend('skipBecause', TEST, ({ skip, task }) => async (reason: string): Promise<never> => {
    console.warn(`skipped: ${task.name}: ${reason}`);
    await attachText('Why this test was skipped', reason);
    return skip(reason);
  });
