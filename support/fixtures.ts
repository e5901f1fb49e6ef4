import { appendFileSync } from 'node:fs';
import { inject, test as base } from 'vitest';
import type { ContractConfig, Credentials } from './config.js';
import { ApiClient } from './http.js';
import { TokenProvider, type IssuedToken } from './tokens.js';
import { createDataFactory } from './factories.js';
import { PersonBook } from './persons.js';
import { ConsumerDesk } from './consumers.js';
import { ScreeningDesk } from './screening.js';
import { onWait } from './eventually.js';
import { attachExchanges } from './report.js';
import { recordShapes } from './drift.js';

function clientFor(config: ContractConfig, credentials: Credentials, token: IssuedToken): ApiClient {
  return new ApiClient({
    baseUrl: config.baseUrl,
    requestTimeoutMs: config.requestTimeoutMs,
    auth: { kind: 'bearer', tokens: new TokenProvider(config.authUrl, credentials, token) },
  });
}

/**
 * Worker scope: the run (config and tokens from global setup) and one API client per client.
 * Test scope: seeded test data and the person book, which deletes what the test created when the
 * test ends, pass or fail.
 */
export const test = base
  // The redaction choke point of each worker learns the secrets and tokens from the TokenProvider
  // of each client (support/tokens.ts); every contract test asks for both clients.
  .extend('run', { scope: 'worker' }, () => inject('contract'))
  // The one place where this worker's observers of the HTTP client and of the waits subscribe:
  // report evidence always; the shape recording when the run writes reports; the wait log when
  // npm run bench sets CONTRACT_WAIT_LOG to count polling attempts per wait across workers.
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; it has none
  .extend('observers', { scope: 'worker', auto: true }, ({}, { onCleanup }) => {
    const waitLog = process.env.CONTRACT_WAIT_LOG;
    const unsubscribe = [
      attachExchanges(),
      process.env.CONTRACT_REPORTS === '1' ? recordShapes() : undefined,
      waitLog ? onWait((wait) => appendFileSync(waitLog, `${JSON.stringify(wait)}\n`)) : undefined,
    ];
    onCleanup(() => unsubscribe.forEach((stop) => stop?.()));
  })
  .extend('config', { scope: 'worker' }, ({ run }) => run.config)
  .extend('api', { scope: 'worker' }, ({ run }) => clientFor(run.config, run.config.client, run.tokens.primary))
  .extend('secondApi', { scope: 'worker' }, ({ run }): ApiClient | undefined =>
    run.config.secondClient && run.tokens.second ? clientFor(run.config, run.config.secondClient, run.tokens.second) : undefined,
  )
  .extend('data', ({ config, task }) =>
    createDataFactory({ seed: config.seed, runId: config.runId, market: config.market, scope: `${task.file.name} > ${task.name}` }),
  )
  .extend('persons', async ({ api, config, data }, { onCleanup }) => {
    const book = new PersonBook(api, config, data);
    onCleanup(() => book.cleanUp());
    return book;
  })
  .extend('consumers', ({ api, config }) => new ConsumerDesk(api, config))
  .extend('screening', ({ api, config }) => new ScreeningDesk(api, config));
