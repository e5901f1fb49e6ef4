// Owns the spec API: `rule(id).test(title, body)`, a documented rule as a test labelled from the catalogue whose
// failures name that rule, and its fixtures: each declared once with scope and cleanup, automatic, free until used.
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import { inject, test as base, type TestAPI, type TestContext } from 'vitest';
import type { ContractConfig, Credentials } from '../run/config.js';
import { ApiClient, systemClock, testWork } from '../transport/http.js';
import { sharedPace } from '../transport/pace.js';
import { registerCredentials, TokenProvider, type IssuedToken } from '../run/tokens.js';
import { createDataFactory } from '../data/factories.js';
import { SandboxPersons } from './persons.js';
import { ConsumerData } from './consumers.js';
import { AmlScreening } from './screening.js';
import { onWait } from '../readings/eventually.js';
import { attachExchanges, attachText, labels } from '../evidence/report.js';
import { countTestSpending, spendTestTime } from '../evidence/test-time.js';
import { registerSecret } from '../transport/redact.js';
import { proxySettings } from '../transport/proxy-routes.js';
import { recordObservations } from '../evidence/observed/recorder.js';
import { OBSERVED_DIR } from '../run/paths.js';
import { operationById, ruleById, ruleSource } from '../run/catalogue.js';
import { attributeToRule } from '../evidence/failures.js';

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

const WORKER = { scope: 'worker', auto: true } as const;
const TEST = { auto: true } as const;

const test = base
  .extend('run', WORKER, readRun)
  // The one place this worker's observers subscribe: report evidence and test time always, the observed contract when
  // the run writes reports, the wait log when npm run bench sets CONTRACT_WAIT_LOG.
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

/** Every fixture above, by name. */
export type ContractContext = typeof test extends TestAPI<infer Fixtures> ? Fixtures : never;

/**
 * `rule('transition.delete').test('…', async ({ persons }) => …)`, labelled epic = interface, feature = operation,
 * story = rule; the verdict on a failure is its own: a When or Then that failed breaks that rule, unless the failure
 * is a precondition, a category of its own or a crash (`attributeToRule`, support/evidence/failures.ts).
 */
export function rule(id: string) {
  const entry = ruleById(id);
  const operation = operationById(entry.operations[0]!);
  return {
    test(title: string, body: (context: ContractContext) => Promise<void>): void {
      test(title, async ({ task, signal }) => {
        // Every fixture is automatic, so the test's context (vitest's `task.context`) holds them all.
        const context = task.context as TestContext & ContractContext;
        await labels({
          epic: entry.epic ?? operation.epic,
          feature: entry.epic ? entry.id : operation.feature,
          story: `${entry.id}: ${entry.quote}`,
          severity: entry.severity,
          links: [ruleSource(entry)],
        });
        try {
          // Its requests stop when it ends, out of time as well (support/transport/http.ts).
          await runningTest.run(title, () =>
            testWork(signal, () => spendTestTime(inject('testOwnTimeMs'), task.timeout, () => body(context))),
          );
        } catch (error) {
          throw attributeToRule(error, id);
        }
      });
    },
  };
}
