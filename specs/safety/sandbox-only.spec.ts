/**
 * Endpoints, rule 3.
 *
 * > Operations 1 and 2 exist only in the sandbox environment.
 *
 * The suite keeps this rule itself: when its target is the production host
 * (CONTRACT_PROD_BASE_URL), it refuses operations 1 and 2 before anything is sent. A local
 * listener stands in for the production host and counts what reaches it.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { ApiClient } from '../../support/transport/http.js';
import { SandboxPersons } from '../../support/verbs/persons.js';
import { SandboxOnlyError } from '../../support/run/config.js';

rule('safety.sandbox-only').test(
  'refuses sandbox-only operations before sending them when the target is the production host',
  async ({ config, data }) => {
    const production = await Given('a target that is the configured production host', async () => {
      let received = 0;
      const server = createServer((_request, response) => {
        received += 1;
        response.writeHead(500).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return {
        url,
        received: () => received,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    });
    try {
      const onProduction = new SandboxPersons(
        new ApiClient({ baseUrl: production.url, auth: { kind: 'none' } }),
        { ...config, baseUrl: production.url, prodBaseUrl: production.url },
        data,
      );
      const person = data.person();

      const outcomes = await When('the client tries operation 1 (PUT) and both forms of operation 2 (DELETE)', () =>
        Promise.all(
          [onProduction.store(person), onProduction.delete(person.id), onProduction.markRemoved(person)].map(
            (attempt) =>
              attempt.then(
                () => undefined,
                (error: unknown) => error,
              ),
          ),
        ),
      );

      await Then('each is refused by the suite and nothing reaches the host', async () => {
        for (const outcome of outcomes)
          expect(outcome, 'a sandbox-only operation is refused for the production host').toBeInstanceOf(
            SandboxOnlyError,
          );
        expect(production.received(), 'requests that reached the production host').toBe(0);
      });
    } finally {
      await production.close();
    }
  },
);
