/**
 * Endpoints, preamble.
 *
 * > All operations except token retrieval send Authorization: Bearer <ACCESS_TOKEN> and
 * > Content-Type: application/json.
 *
 * Calls without a token, or with a token the service never issued, are rejected. Checked on the
 * two list operations, whose answer with a valid token is a 2xx whatever data exists.
 * Not asserted (not shown): the status (any 4xx) and the error body.
 */
import { rule } from '../../support/verbs/contract.js';
import { Given, Then, When } from '../../support/evidence/report.js';
import { CONSUMERS_PATH, SUBSCRIBED_PERSONS_PATH } from '../../support/verbs/consumers.js';
import type { Auth } from '../../support/transport/http.js';
import { expectRejected } from '../../support/evidence/expectations.js';

const UNAUTHORIZED: Record<string, Auth> = {
  'no Authorization header': { kind: 'none' },
  'a bearer token the service never issued': { kind: 'raw', authorization: 'Bearer not-a-token-0123456789' },
};

rule('auth.bearer-required').test('rejects calls without a token or with a token it never issued', async ({ api }) => {
  const attempts = await Given('each list operation with each kind of missing token', async () =>
    [CONSUMERS_PATH, SUBSCRIBED_PERSONS_PATH].flatMap((path) => Object.entries(UNAUTHORIZED).map(([how, auth]) => ({ path, how, auth }))),
  );

  const answers = await When('the client calls them', () =>
    Promise.all(attempts.map(async ({ path, how, auth }) => ({ path, how, status: (await api.request('GET', path, { auth, operation: path === CONSUMERS_PATH ? 'op6' : 'op7', purpose: `call with ${how}` })).status }))),
  );

  await Then('every call is rejected with a 4xx', async () => {
    for (const { path, how, status } of answers) expectRejected({ status }, `GET ${path} with ${how}`);
  });
});
