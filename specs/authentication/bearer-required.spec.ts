/**
 * Endpoints, preamble.
 *
 * > All operations except token retrieval send Authorization: Bearer <ACCESS_TOKEN> and
 * > Content-Type: application/json.
 *
 * Calls without a token, or with a token the service never issued, are rejected. Checked on the
 * two list operations, whose answer with a valid token is a 2xx whatever data exists.
 * Not asserted (not shown): the status (any 4xx) and the error body.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import type { Auth } from '../../support/transport/http.js';
import { expectRejected } from '../../support/evidence/expectations.js';

const UNAUTHORIZED: Record<string, Auth> = {
  'no Authorization header': { kind: 'none' },
  'a bearer token the service never issued': { kind: 'raw', authorization: 'Bearer not-a-token-0123456789' },
};

rule('auth.bearer-required').test(
  'rejects calls without a token or with a token it never issued',
  async ({ api, config }) => {
    const lists = { op6: config.paths.consumers, op7: config.paths.subscribedPersons };
    const attempts = await Given('each list operation with each kind of missing token', async () =>
      Object.entries(lists).flatMap(([operation, path]) =>
        Object.entries(UNAUTHORIZED).map(([how, auth]) => ({ operation, path, how, auth })),
      ),
    );

    const answers = await When('the client calls them', () =>
      Promise.all(
        attempts.map(async ({ operation, path, how, auth }) => ({
          path,
          how,
          status: (await api.request('GET', path, { auth, operation, purpose: `call with ${how}` })).status,
        })),
      ),
    );

    await Then('every call is rejected with a 4xx', async () => {
      for (const { path, how, status } of answers) expectRejected({ status }, `GET ${path} with ${how}`);
    });
  },
);
