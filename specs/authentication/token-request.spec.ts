/**
 * Authentication, items 2 and 3.
 *
 * > Token request: POST {auth_url}/sandbox/v1/token.oauth2 with Content-Type:
 * > application/x-www-form-urlencoded, form fields grant_type = client_credentials and scope = bci,
 * > and HTTP Basic authentication with <CLIENT_ID>:<CLIENT_SECRET>.
 * > The response property access_token is sent on every other request as Authorization: Bearer.
 *
 * The run requests one token per client in its global setup (support/run/global-setup.ts) and
 * shares it with every worker. Setup enforces the first half of this rule: a 2xx answer without an
 * access_token stops the run before any test, reporting this rule broken, so a test that asserted
 * it again could never fail. This spec shows setup's evidence (its token exchange, redacted) and
 * checks the second half, which setup does not: the issued token is accepted as a bearer token.
 * Not asserted (not shown): token lifetime and the other response properties.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { attachJson } from '../../support/evidence/report.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('auth.token-issued').test(
  'issues an access_token for the documented client-credentials request, and accepts it as a bearer token',
  async ({ run, api, config }) => {
    await Given('the access_token the token request of this run answered, as its setup required', () =>
      attachJson('token exchange (redacted)', run.tokenEvidence),
    );

    const response = await When('the client lists its consumers with Authorization: Bearer <access_token>', () =>
      api.request('GET', config.paths.consumers, { operation: 'op6', purpose: 'list consumers with the issued token' }),
    );

    await Then('the call is accepted', async () => {
      expectAccepted(response, 'the call with the issued token');
    });
  },
);
